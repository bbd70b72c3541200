import { thermalPresetSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** GET /robots/:id/thermal-presets: at most THERMAL_PRESET_LIMIT named thermal camera settings. */
export const getThermalPresets = (robotId: number) =>
  api.get(`/robots/${robotId}/thermal-presets`, z.array(thermalPresetSchema));

export const thermalPresetsQueryOptions = (robotId: number) =>
  queryOptions({ queryKey: teleopKeys.thermalPresets(robotId), queryFn: () => getThermalPresets(robotId) });

export const useThermalPresets = (robotId: number, enabled = true) =>
  useQuery({ ...thermalPresetsQueryOptions(robotId), enabled });
