import { organizationSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getOrganization = (id: number) => api.get(`/organizations/${id}`, organizationSchema);

export const organizationQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['organizations', 'detail', id], queryFn: () => getOrganization(id) });

export const useOrganization = (id: number) => useQuery(organizationQueryOptions(id));
