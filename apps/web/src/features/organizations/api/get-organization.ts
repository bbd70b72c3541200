import { organizationOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const organizationQueryOptions = (id: number) =>
  opQuery(organizationOps.getOrganization, queryKeys.organizations.detail(id), { params: { id } });

export const useOrganization = (id: number) => useQuery(organizationQueryOptions(id));
