import { operatorSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storeOperator } from './update-operator';

/** POST /operators/:id/unlock: also resets the failed login count. */
export const unlockOperator = (id: number) => api.send('POST', `/operators/${id}/unlock`, operatorSchema);

export const useUnlockOperator = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unlockOperator, onSuccess: (op) => storeOperator(queryClient, op) });
};
