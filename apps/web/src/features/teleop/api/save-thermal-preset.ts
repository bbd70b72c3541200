import { thermalPresetSaveResultSchema, type ThermalPresetInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/**
 * POST /robots/:id/thermal-presets: a preset of the same name is overwritten; beyond the limit the
 * oldest is deleted (the answer says which happened).
 */
export const saveThermalPreset = (robotId: number, body: ThermalPresetInput) =>
  api.send('POST', `/robots/${robotId}/thermal-presets`, thermalPresetSaveResultSchema, { body });

export const useSaveThermalPreset = (robotId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ThermalPresetInput) => saveThermalPreset(robotId, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: teleopKeys.thermalPresets(robotId) }),
  });
};
