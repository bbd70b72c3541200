import { floorOps, type FloorInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const useCreateFloor = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(floorOps.createFloor, {
    args: (body: FloorInput) => ({ params: { id: buildingId }, body }),
    invalidates: ['floors'],
    onSuccess: (f) => queryClient.setQueryData(queryKeys.floors.detail(f.id), f),
  });
};
