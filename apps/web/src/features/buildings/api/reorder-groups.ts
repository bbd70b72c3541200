import { groupOpsByKind, type Group } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { groupResource, type GroupKind } from './get-groups';

/** PUT /buildings/:id/robot-groups/order with every id in the new order. */
export const useReorderGroups = (buildingId: number, kind: GroupKind) => {
  const queryClient = useQueryClient();
  const key = queryKeys.buildings.part(buildingId, `${kind}s`);
  return useOpMutation(groupOpsByKind[kind].reorder, {
    args: (ids: number[]) => ({ params: { id: buildingId }, body: { ids } }),
    invalidates: ['buildings', groupResource(kind)],
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
      const before = (context as { before?: Group[] } | undefined)?.before;
      if (before) queryClient.setQueryData(key, before);
    },
    onSuccess: (groups) => queryClient.setQueryData(key, groups),
  });
};
