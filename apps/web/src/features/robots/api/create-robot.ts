import { robotOps, type RobotInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** POST /robots: 201 with the robot and its broker credentials (shown once). */
export function useCreateRobot() {
  const qc = useQueryClient();
  return useOpMutation(robotOps.createRobot, {
    args: (body: RobotInput) => ({ body }),
    invalidates: ['robots'],
    onSuccess: (created) => qc.setQueryData(queryKeys.robots.detail(created.robot.id), created.robot),
  });
}
