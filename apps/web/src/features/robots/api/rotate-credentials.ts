import { robotOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /robots/:id/credentials: a new password (the old one stops working), answered once. */
export const useRotateCredentials = () =>
  useOpMutation(robotOps.rotateRobotCredentials, { args: (id: number) => ({ params: { id } }), invalidates: [] });
