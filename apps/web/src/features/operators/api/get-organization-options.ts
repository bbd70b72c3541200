import { organizationOps, organizationSchema, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const optionsSchema = z.array(organizationSchema.pick({ id: true, name: true }));
/** The list asks for id and name: each item has both. */
const options = (rows: unknown) => optionsSchema.parse(rows);
const filter: Filter = { fields: ['id', 'name'], order: 'name ASC', limit: 1000 };

/** Organizations of the caller's scope (id and name) for the operator's organization choice. */
export const organizationOptionsQueryOptions = () => ({
  ...opQuery(organizationOps.listOrganizations, queryKeys.organizations.options('names'), { query: { filter } }),
  staleTime: 60_000,
});

export const useOrganizationOptions = () => useQuery({ ...organizationOptionsQueryOptions(), select: options });
