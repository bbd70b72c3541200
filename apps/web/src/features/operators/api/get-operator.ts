import { operatorSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getOperator = (id: number) => api.get(`/operators/${id}`, operatorSchema);

export const operatorQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['operators', 'detail', id], queryFn: () => getOperator(id) });

export const useOperator = (id: number) => useQuery(operatorQueryOptions(id));
