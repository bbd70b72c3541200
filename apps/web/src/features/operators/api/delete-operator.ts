import { operatorOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** DELETE /operators/:id: the operator's sessions end at once. */
export const useDeleteOperator = () =>
  useOpMutation(operatorOps.deleteOperator, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['operators'],
  });
