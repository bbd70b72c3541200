import { operatorOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';
import { useStoreOperator } from './update-operator';

/** POST /operators/:id/unlock: also resets the failed login count. */
export const useUnlockOperator = () => {
  const store = useStoreOperator();
  return useOpMutation(operatorOps.unlockOperator, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['operators'],
    onSuccess: store,
  });
};
