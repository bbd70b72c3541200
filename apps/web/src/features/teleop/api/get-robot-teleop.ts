import { robotTeleopSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** GET /robots/:id/teleop: capabilities, the last teleop facts and who has the controls. */
export const getRobotTeleop = (robotId: number) => api.get(`/robots/${robotId}/teleop`, robotTeleopSchema);

export const robotTeleopQueryOptions = (robotId: number) =>
  queryOptions({ queryKey: teleopKeys.teleop(robotId), queryFn: () => getRobotTeleop(robotId) });

export const useRobotTeleop = (robotId: number | null) =>
  useQuery({ ...robotTeleopQueryOptions(robotId ?? 0), enabled: robotId !== null });
