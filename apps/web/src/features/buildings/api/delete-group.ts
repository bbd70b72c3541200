import { groupOpsByKind } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { groupResource, type GroupKind } from './get-groups';

export const useDeleteGroup = (kind: GroupKind, _buildingId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(groupOpsByKind[kind].remove, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['buildings'],
    onSuccess: (_, id) => queryClient.removeQueries({ queryKey: queryKeys[groupResource(kind)].detail(id) }),
  });
};
