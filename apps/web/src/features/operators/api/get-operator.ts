import { operatorOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const operatorQueryOptions = (id: number) =>
  opQuery(operatorOps.getOperator, queryKeys.operators.detail(id), { params: { id } });

export const useOperator = (id: number) => useQuery(operatorQueryOptions(id));
