import { operatorSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storeOperator } from './update-operator';

/** POST /operators/:id/force-password-change: a new password at the next sign-in. */
export const forcePasswordChange = (id: number) =>
  api.send('POST', `/operators/${id}/force-password-change`, operatorSchema);

export const useForcePasswordChange = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: forcePasswordChange, onSuccess: (op) => storeOperator(queryClient, op) });
};
