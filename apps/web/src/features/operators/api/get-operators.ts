import { operatorOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { operatorListFilter, type OperatorListParams } from '../list-params';

/** GET /operators?filter=: one page and the X-Total-Count total. */
export const operatorsQueryOptions = (params: OperatorListParams) => {
  const filter = operatorListFilter(params);
  return {
    ...opPageQuery(operatorOps.listOperators, queryKeys.operators.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const useOperators = (params: OperatorListParams) => useQuery(operatorsQueryOptions(params));
