import { operatorOps, type Operator, type UpdateOperatorBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** After any change to one operator: its detail is the answer; every view of operators refreshes. */
export function useStoreOperator() {
  const queryClient = useQueryClient();
  return (operator: Operator) => queryClient.setQueryData(queryKeys.operators.detail(operator.id), operator);
}

/** PATCH /operators/:id with the `updatedAt` it was based on; no password keeps the current one. */
export const useUpdateOperator = () => {
  const store = useStoreOperator();
  return useOpMutation(operatorOps.updateOperator, {
    args: ({ id, body }: { id: number; body: UpdateOperatorBody }) => ({ params: { id }, body }),
    invalidates: ['operators'],
    onSuccess: store,
  });
};
