import { groupSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

/** GET /buildings/:id/robot-groups (or flow-groups), in their sort order. */
export const getGroups = (buildingId: number, kind: GroupKind) =>
  api.get(`/buildings/${buildingId}/${kind}s`, z.array(groupSchema));

export const groupsQueryOptions = (buildingId: number, kind: GroupKind) =>
  queryOptions({ queryKey: buildingKeys.groups(buildingId, kind), queryFn: () => getGroups(buildingId, kind) });

export const useGroups = (buildingId: number, kind: GroupKind) => useQuery(groupsQueryOptions(buildingId, kind));
