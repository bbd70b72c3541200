import { operatorSchema } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { operatorListFilter, type OperatorListParams } from '../list-params';

/** GET /operators?filter=: one page and the X-Total-Count total. */
export async function getOperators(params: OperatorListParams) {
  const res = await apiRequest('GET', '/operators', { query: { filter: JSON.stringify(operatorListFilter(params)) } });
  const items = parseWith(z.array(operatorSchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const operatorsQueryOptions = (params: OperatorListParams) =>
  queryOptions({
    queryKey: ['operators', 'list', params],
    queryFn: () => getOperators(params),
    placeholderData: keepPreviousData,
  });

export const useOperators = (params: OperatorListParams) => useQuery(operatorsQueryOptions(params));
