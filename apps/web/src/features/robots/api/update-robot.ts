import { robotOps, type UpdateRobotBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /robots/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateRobot() {
  const qc = useQueryClient();
  return useOpMutation(robotOps.updateRobot, {
    args: ({ id, body }: { id: number; body: UpdateRobotBody }) => ({ params: { id }, body }),
    // Every view of robots refreshes: lists, the fleet, the setting history, the operator screens.
    invalidates: ['robots'],
    onSuccess: (robot) => qc.setQueryData(queryKeys.robots.detail(robot.id), robot),
  });
}
