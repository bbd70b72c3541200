import { robotFeatureOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/:id/thermal-presets: at most THERMAL_PRESET_LIMIT named thermal camera settings. */
export const thermalPresetsQueryOptions = (robotId: number) =>
  opQuery(robotFeatureOps.listThermalPresets, queryKeys.teleop.part(robotId, 'thermal-presets'), {
    params: { id: robotId },
  });

export const useThermalPresets = (robotId: number, enabled = true) =>
  useQuery({ ...thermalPresetsQueryOptions(robotId), enabled });
