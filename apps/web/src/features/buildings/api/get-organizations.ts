import { organizationOps, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const filter: Filter = { order: 'name ASC', fields: ['id', 'name'], limit: 1000 };

/** Organizations a system administrator may put a building in (id and name only). */
export const organizationOptionsQueryOptions = () => ({
  ...opQuery(organizationOps.listOrganizations, queryKeys.organizations.options('building-form', filter), {
    query: { filter },
  }),
  staleTime: 5 * 60_000,
});

export const useOrganizationOptions = (enabled: boolean) => useQuery({ ...organizationOptionsQueryOptions(), enabled });
