import { deliverySchema, paged } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const DELIVERIES_PER_PAGE = 50;
const deliveryPageSchema = paged(deliverySchema);

/** GET /deliveries (system administrators): every mail and SMS, sent or kept. */
export const getDeliveries = (page: number) =>
  api.get('/deliveries', deliveryPageSchema, { query: { page, perPage: DELIVERIES_PER_PAGE } });

export const deliveriesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['deliveries', page],
    queryFn: () => getDeliveries(page),
    placeholderData: keepPreviousData,
  });

export const useDeliveries = (page: number) => useQuery(deliveriesQueryOptions(page));
