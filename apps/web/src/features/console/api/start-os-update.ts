import { robotActionResultSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { consoleKeys } from './keys';

/**
 * POST /robots/:id/os-update: 202 once the robot was told to update. 409 OS_UPDATE_LOW_BATTERY
 * (below OS_UPDATE_MIN_BATTERY), ROBOT_OFFLINE or CAPABILITY_MISSING.
 */
export const startOsUpdate = (robotId: number) =>
  api.send('POST', `/robots/${robotId}/os-update`, robotActionResultSchema, { body: {} });

export function useStartOsUpdate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: startOsUpdate,
    onSuccess: (_result, robotId) => void qc.invalidateQueries({ queryKey: consoleKeys.console(robotId) }),
  });
}
