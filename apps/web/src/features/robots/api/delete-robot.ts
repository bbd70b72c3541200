import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

export const deleteRobot = (id: number) => api.command('DELETE', `/robots/${id}`);

export function useDeleteRobot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteRobot,
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: robotKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: ['robots', 'list'] });
    },
  });
}
