import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const deleteIpRule = (id: number) => api.command('DELETE', `/ip-rules/${id}`);

export const useDeleteIpRule = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteIpRule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildingKeys.ipRestriction(buildingId) }),
  });
};
