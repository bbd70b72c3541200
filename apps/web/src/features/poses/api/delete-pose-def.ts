import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

/** DELETE /pose-defs/:id (409 IN_USE naming the networks that hold it). */
export const deletePoseDef = (id: number) => api.command('DELETE', `/pose-defs/${id}`);

export function useDeletePoseDef() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deletePoseDef,
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: poseKeys.def(id) });
      void qc.invalidateQueries({ queryKey: ['poses', 'defs'] });
    },
  });
}
