import { robotFeatureOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/:id/photos: the photos taken by the robot, newest first. */
export const robotPhotosQueryOptions = (robotId: number) =>
  opQuery(robotFeatureOps.listRobotPhotos, queryKeys.teleop.part(robotId, 'photos'), { params: { id: robotId } });

/** `refetchInterval`: poll for a while after taking a photo (the robot uploads it a moment later). */
export const useRobotPhotos = (
  robotId: number,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) => useQuery({ ...robotPhotosQueryOptions(robotId), ...options });
