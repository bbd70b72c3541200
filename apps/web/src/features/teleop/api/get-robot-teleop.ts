import { robotFeatureOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/:id/teleop: capabilities, the last teleop facts and who has the controls. */
export const robotTeleopQueryOptions = (robotId: number) =>
  opQuery(robotFeatureOps.getRobotTeleop, queryKeys.teleop.detail(robotId), { params: { id: robotId } });

export const useRobotTeleop = (robotId: number | null) =>
  useQuery({ ...robotTeleopQueryOptions(robotId ?? 0), enabled: robotId !== null });
