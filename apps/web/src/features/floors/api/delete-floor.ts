import { floorOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const useDeleteFloor = (_buildingId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(floorOps.deleteFloor, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['floors'],
    onSuccess: (_, id) => queryClient.removeQueries({ queryKey: queryKeys.floors.detail(id) }),
  });
};
