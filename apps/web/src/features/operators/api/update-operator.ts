import { operatorSchema, type Operator, type UpdateOperatorBody } from '@portal/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { operatorQueryOptions } from './get-operator';

/** PATCH /operators/:id with the `updatedAt` it was based on; no password keeps the current one. */
export const updateOperator = ({ id, body }: { id: number; body: UpdateOperatorBody }) =>
  api.send('PATCH', `/operators/${id}`, operatorSchema, { body });

/** After any change to one operator: its detail is the answer, the lists are refetched. */
export async function storeOperator(queryClient: QueryClient, operator: Operator) {
  queryClient.setQueryData(operatorQueryOptions(operator.id).queryKey, operator);
  await queryClient.invalidateQueries({ queryKey: ['operators', 'list'] });
}

export const useUpdateOperator = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateOperator, onSuccess: (op) => storeOperator(queryClient, op) });
};
