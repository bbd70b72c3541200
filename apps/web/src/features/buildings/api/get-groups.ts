import { groupOpsByKind } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** Robot groups and flow groups share one shape of screens and operations. */
export type GroupKind = keyof typeof groupOpsByKind;

/** The query-key resource of one kind of group (its detail views). */
export const groupResource = (kind: GroupKind) => (kind === 'robot-group' ? 'robotGroups' : 'flowGroups');

/** GET /buildings/:id/robot-groups (or flow-groups), in their sort order. */
export const groupsQueryOptions = (buildingId: number, kind: GroupKind) =>
  opQuery(groupOpsByKind[kind].list, queryKeys.buildings.part(buildingId, `${kind}s`), {
    params: { id: buildingId },
  });

export const useGroups = (buildingId: number, kind: GroupKind) => useQuery(groupsQueryOptions(buildingId, kind));
