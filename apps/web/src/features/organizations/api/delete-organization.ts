import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /organizations/:id (system administrators; 409 IN_USE while anything hangs on it). */
export const deleteOrganization = (id: number) => api.command('DELETE', `/organizations/${id}`);

export const useDeleteOrganization = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations', 'list'] }),
  });
};
