import { groupSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

/** GET /buildings/:id/robot-groups: the groups a robot of the building may join. */
export const getRobotGroups = (buildingId: number) =>
  api.get(`/buildings/${buildingId}/robot-groups`, z.array(groupSchema));

export const robotGroupsQueryOptions = (buildingId: number) =>
  queryOptions({ queryKey: robotKeys.groups(buildingId), queryFn: () => getRobotGroups(buildingId) });

export const useRobotGroups = (buildingId: number | null) =>
  useQuery({ ...robotGroupsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
