import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

export const deletePoseNetwork = (id: number) => api.command('DELETE', `/pose-networks/${id}`);

export function useDeletePoseNetwork() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deletePoseNetwork,
    onSuccess: (_, id) => {
      qc.removeQueries({ queryKey: poseKeys.network(id) });
      void qc.invalidateQueries({ queryKey: ['poses', 'networks', 'list'] });
    },
  });
}
