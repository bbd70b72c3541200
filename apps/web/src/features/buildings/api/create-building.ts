import { buildingSchema, type BuildingInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const createBuilding = (body: BuildingInput) => api.send('POST', '/buildings', buildingSchema, { body });

export const useCreateBuilding = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBuilding,
    onSuccess: (b) => {
      queryClient.setQueryData(buildingKeys.detail(b.id), b);
      void queryClient.invalidateQueries({ queryKey: buildingKeys.all, exact: false, refetchType: 'none' });
    },
  });
};
