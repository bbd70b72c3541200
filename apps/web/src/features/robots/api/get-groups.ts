import { groupOpsByKind } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /buildings/:id/robot-groups: the groups a robot of the building may join. */
export const robotGroupsQueryOptions = (buildingId: number) =>
  opQuery(groupOpsByKind['robot-group'].list, queryKeys.robotGroups.options('building', buildingId), {
    params: { id: buildingId },
  });

export const useRobotGroups = (buildingId: number | null) =>
  useQuery({ ...robotGroupsQueryOptions(buildingId ?? 0), enabled: buildingId !== null });
