import { organizationSchema } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { organizationListFilter, type OrganizationListParams } from '../list-params';

/** GET /organizations?filter=: one page of the caller's organizations and the total. */
export async function getOrganizations(params: OrganizationListParams) {
  const res = await apiRequest('GET', '/organizations', {
    query: { filter: JSON.stringify(organizationListFilter(params)) },
  });
  const items = parseWith(z.array(organizationSchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const organizationsQueryOptions = (params: OrganizationListParams) =>
  queryOptions({
    queryKey: ['organizations', 'list', params],
    queryFn: () => getOrganizations(params),
    placeholderData: keepPreviousData,
  });

export const useOrganizations = (params: OrganizationListParams) => useQuery(organizationsQueryOptions(params));
