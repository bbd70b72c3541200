import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /operators/:id: the operator's sessions end at once. */
export const deleteOperator = (id: number) => api.command('DELETE', `/operators/${id}`);

export const useDeleteOperator = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOperator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['operators', 'list'] }),
  });
};
