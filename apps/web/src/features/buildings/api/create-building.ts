import { buildingOps, type BuildingInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const useCreateBuilding = () => {
  const queryClient = useQueryClient();
  return useOpMutation(buildingOps.createBuilding, {
    args: (body: BuildingInput) => ({ body }),
    invalidates: ['buildings'],
    onSuccess: (b) => queryClient.setQueryData(queryKeys.buildings.detail(b.id), b),
  });
};
