import { robotFeatureOps, type RobotAction } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * POST /robots/:id/actions: one robot feature (speak, photo, recording, gimbal, lights...). 202 with
 * the action id once it is on its way; 409 RECORDING_ALREADY_STARTED / RECORDING_NOT_STARTED,
 * TELEOP_LOCKED, CAPABILITY_MISSING, ROBOT_OFFLINE when it cannot be. Quiet: no overlay over the video.
 */
export const useRobotAction = (robotId: number) => {
  const qc = useQueryClient();
  return useOpMutation(robotFeatureOps.sendRobotAction, {
    args: (action: RobotAction) => ({ params: { id: robotId }, body: action, quiet: true }),
    invalidates: [],
    onSuccess: (_r, action) => {
      // The robot uploads the photo a moment later; the list is fetched again then (see PhotoList).
      if (action.type === 'takePhoto')
        void qc.invalidateQueries({ queryKey: queryKeys.teleop.part(robotId, 'photos') });
    },
  });
};
