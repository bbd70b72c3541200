import { robotFeatureOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * POST /robots/:id/os-update: 202 once the robot was told to update. 409 OS_UPDATE_LOW_BATTERY
 * (below OS_UPDATE_MIN_BATTERY), ROBOT_OFFLINE or CAPABILITY_MISSING.
 */
export function useStartOsUpdate() {
  const qc = useQueryClient();
  return useOpMutation(robotFeatureOps.startRobotOsUpdate, {
    args: (robotId: number) => ({ params: { id: robotId }, body: {} }),
    invalidates: [],
    onSuccess: (_result, robotId) => void qc.invalidateQueries({ queryKey: queryKeys.console.part(robotId, 'state') }),
  });
}
