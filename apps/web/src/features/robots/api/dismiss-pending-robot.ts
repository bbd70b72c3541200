import { robotOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDismissPendingRobot = () =>
  useOpMutation(robotOps.deletePendingRobot, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['robots'],
  });
