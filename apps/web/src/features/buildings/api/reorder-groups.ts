import { groupSchema, type Group } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

/** PUT /buildings/:id/robot-groups/order with every id in the new order. */
export const reorderGroups = (buildingId: number, kind: GroupKind, ids: number[]) =>
  api.send('PUT', `/buildings/${buildingId}/${kind}s/order`, z.array(groupSchema), { body: { ids } });

export const useReorderGroups = (buildingId: number, kind: GroupKind) => {
  const queryClient = useQueryClient();
  const key = buildingKeys.groups(buildingId, kind);
  return useMutation({
    mutationFn: (ids: number[]) => reorderGroups(buildingId, kind, ids),
    // Show the new order at once; put the old one back if the server refuses.
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Group[]>(key);
      if (before) {
        const byId = new Map(before.map((g) => [g.id, g]));
        queryClient.setQueryData(
          key,
          ids.flatMap((id) => byId.get(id) ?? []),
        );
      }
      return { before };
    },
    onError: (_e, _ids, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSuccess: (groups) => queryClient.setQueryData(key, groups),
  });
};
