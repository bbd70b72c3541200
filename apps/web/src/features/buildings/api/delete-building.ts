import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const deleteBuilding = (id: number) => api.command('DELETE', `/buildings/${id}`);

export const useDeleteBuilding = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBuilding,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: buildingKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: buildingKeys.all });
    },
  });
};
