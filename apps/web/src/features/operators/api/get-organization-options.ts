import { organizationSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const optionsSchema = z.array(organizationSchema.pick({ id: true, name: true }));
const filter: Filter = { fields: ['id', 'name'], order: 'name ASC', limit: 1000 };

/** Organizations of the caller's scope (id and name) for the operator's organization choice. */
export const getOrganizationOptions = () =>
  api.get('/organizations', optionsSchema, { query: { filter: JSON.stringify(filter) } });

export const organizationOptionsQueryOptions = () =>
  queryOptions({ queryKey: ['organizations', 'options'], queryFn: getOrganizationOptions, staleTime: 60_000 });

export const useOrganizationOptions = () => useQuery(organizationOptionsQueryOptions());
