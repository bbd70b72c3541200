import { operatorOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';
import { useStoreOperator } from './update-operator';

/** POST /operators/:id/force-password-change: a new password at the next sign-in. */
export const useForcePasswordChange = () => {
  const store = useStoreOperator();
  return useOpMutation(operatorOps.forcePasswordChange, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['operators'],
    onSuccess: store,
  });
};
