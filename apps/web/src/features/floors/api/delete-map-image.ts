import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

export const deleteMapImage = (id: number) => api.command('DELETE', `/floors/${id}/map-image`);

export const useDeleteMapImage = (id: number, buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteMapImage(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: floorKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: ['buildings', buildingId, 'floors'] });
    },
  });
};
