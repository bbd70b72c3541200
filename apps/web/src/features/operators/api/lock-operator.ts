import { operatorOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';
import { useStoreOperator } from './update-operator';

/** POST /operators/:id/lock: locked until unlocked; sessions end at once. */
export const useLockOperator = () => {
  const store = useStoreOperator();
  return useOpMutation(operatorOps.lockOperator, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['operators'],
    onSuccess: store,
  });
};
