import { adminOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const DELIVERIES_PER_PAGE = 50;

/** GET /deliveries (system administrators): every mail and SMS, sent or kept. */
export const deliveriesQueryOptions = (page: number) => ({
  ...opQuery(adminOps.listDeliveries, queryKeys.deliveries.list(page), {
    query: { page, perPage: DELIVERIES_PER_PAGE },
  }),
  placeholderData: keepPreviousData,
});

export const useDeliveries = (page: number) => useQuery(deliveriesQueryOptions(page));
