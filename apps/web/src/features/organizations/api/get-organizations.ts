import { organizationOps, organizationSchema } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { organizationListFilter, type OrganizationListParams } from '../list-params';

const wholeItems = z.array(organizationSchema);

/** The list asks for no `fields`, so its items are whole organizations. */
const wholeOrganizations = (page: { items: unknown[]; total: number }) => ({
  items: wholeItems.parse(page.items),
  total: page.total,
});

/** GET /organizations?filter=: one page of the caller's organizations and the total. */
export const organizationsQueryOptions = (params: OrganizationListParams) => {
  const filter = organizationListFilter(params);
  return {
    ...opPageQuery(organizationOps.listOrganizations, queryKeys.organizations.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const useOrganizations = (params: OrganizationListParams) =>
  useQuery({ ...organizationsQueryOptions(params), select: wholeOrganizations });
