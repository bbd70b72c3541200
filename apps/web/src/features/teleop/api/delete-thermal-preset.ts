import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** DELETE /robots/:id/thermal-presets/:presetId */
export const deleteThermalPreset = (robotId: number, presetId: number) =>
  api.command('DELETE', `/robots/${robotId}/thermal-presets/${presetId}`);

export const useDeleteThermalPreset = (robotId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (presetId: number) => deleteThermalPreset(robotId, presetId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: teleopKeys.thermalPresets(robotId) }),
  });
};
