import { operatorSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storeOperator } from './update-operator';

/** POST /operators/:id/lock: locked until unlocked; sessions end at once. */
export const lockOperator = (id: number) => api.send('POST', `/operators/${id}/lock`, operatorSchema);

export const useLockOperator = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: lockOperator, onSuccess: (op) => storeOperator(queryClient, op) });
};
