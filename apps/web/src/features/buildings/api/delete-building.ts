import { buildingOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const useDeleteBuilding = () => {
  const queryClient = useQueryClient();
  return useOpMutation(buildingOps.deleteBuilding, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['buildings'],
    onSuccess: (_, id) => queryClient.removeQueries({ queryKey: queryKeys.buildings.detail(id) }),
  });
};
