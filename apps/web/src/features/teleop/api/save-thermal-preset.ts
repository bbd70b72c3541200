import { robotFeatureOps, type ThermalPresetInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * POST /robots/:id/thermal-presets: a preset of the same name is overwritten; beyond the limit the
 * oldest is deleted (the answer says which happened).
 */
export const useSaveThermalPreset = (robotId: number) => {
  const qc = useQueryClient();
  return useOpMutation(robotFeatureOps.saveThermalPreset, {
    args: (body: ThermalPresetInput) => ({ params: { id: robotId }, body }),
    invalidates: [],
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.teleop.part(robotId, 'thermal-presets') }),
  });
};
