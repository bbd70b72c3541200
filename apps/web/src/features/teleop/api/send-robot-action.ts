import { robotActionResultSchema, type RobotAction } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/**
 * POST /robots/:id/actions: one robot feature (speak, photo, recording, gimbal, lights...). 202 with
 * the action id once it is on its way; 409 RECORDING_ALREADY_STARTED / RECORDING_NOT_STARTED,
 * TELEOP_LOCKED, CAPABILITY_MISSING, ROBOT_OFFLINE when it cannot be.
 */
export const sendRobotAction = (robotId: number, action: RobotAction) =>
  api.send('POST', `/robots/${robotId}/actions`, robotActionResultSchema, { body: action, quiet: true });

export const useRobotAction = (robotId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: RobotAction) => sendRobotAction(robotId, action),
    onSuccess: (_r, action) => {
      // The robot uploads the photo a moment later; the list is fetched again then (see PhotoList).
      if (action.type === 'takePhoto') void queryClient.invalidateQueries({ queryKey: teleopKeys.photos(robotId) });
    },
  });
};
