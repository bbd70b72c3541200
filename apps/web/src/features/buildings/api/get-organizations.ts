import { organizationListSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

const filter: Filter = { order: 'name ASC', fields: ['id', 'name'], limit: 1000 };

/** Organizations a system administrator may put a building in (id and name only). */
export const getOrganizationOptions = () =>
  api.get('/organizations', organizationListSchema, { query: { filter: JSON.stringify(filter) } });

export const organizationOptionsQueryOptions = () =>
  queryOptions({ queryKey: buildingKeys.organizations, queryFn: getOrganizationOptions, staleTime: 5 * 60_000 });

export const useOrganizationOptions = (enabled: boolean) => useQuery({ ...organizationOptionsQueryOptions(), enabled });
