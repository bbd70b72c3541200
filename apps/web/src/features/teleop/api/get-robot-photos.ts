import { robotPhotoSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { teleopKeys } from './keys';

/** GET /robots/:id/photos: the photos taken by the robot, newest first. */
export const getRobotPhotos = (robotId: number) => api.get(`/robots/${robotId}/photos`, z.array(robotPhotoSchema));

export const robotPhotosQueryOptions = (robotId: number) =>
  queryOptions({ queryKey: teleopKeys.photos(robotId), queryFn: () => getRobotPhotos(robotId) });

/** `refetchInterval`: poll for a while after taking a photo (the robot uploads it a moment later). */
export const useRobotPhotos = (
  robotId: number,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) => useQuery({ ...robotPhotosQueryOptions(robotId), ...options });
