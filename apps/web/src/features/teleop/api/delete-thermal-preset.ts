import { robotFeatureOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /robots/:id/thermal-presets/:presetId */
export const useDeleteThermalPreset = (robotId: number) => {
  const qc = useQueryClient();
  return useOpMutation(robotFeatureOps.deleteThermalPreset, {
    args: (presetId: number) => ({ params: { id: robotId, presetId } }),
    invalidates: [],
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.teleop.part(robotId, 'thermal-presets') }),
  });
};
