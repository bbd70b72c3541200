import { floorDetailSchema, type FloorInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

export const createFloor = (buildingId: number, body: FloorInput) =>
  api.send('POST', `/buildings/${buildingId}/floors`, floorDetailSchema, { body });

export const useCreateFloor = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FloorInput) => createFloor(buildingId, body),
    onSuccess: (f) => {
      queryClient.setQueryData(floorKeys.detail(f.id), f);
      void queryClient.invalidateQueries({ queryKey: ['buildings', buildingId, 'floors'] });
    },
  });
};
