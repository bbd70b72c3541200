import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

export const deleteGroup = (kind: GroupKind, id: number) => api.command('DELETE', `/${kind}s/${id}`);

export const useDeleteGroup = (kind: GroupKind, buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteGroup(kind, id),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: buildingKeys.group(kind, id) });
      void queryClient.invalidateQueries({ queryKey: buildingKeys.groups(buildingId, kind) });
    },
  });
};
