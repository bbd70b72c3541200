import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

export const deleteFloor = (id: number) => api.command('DELETE', `/floors/${id}`);

export const useDeleteFloor = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFloor,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: floorKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: ['buildings', buildingId, 'floors'] });
    },
  });
};
