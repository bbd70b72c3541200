import { poseNetworkOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /pose-networks/:id. */
export function useDeletePoseNetwork() {
  const qc = useQueryClient();
  return useOpMutation(poseNetworkOps.deletePoseNetwork, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['poseNetworks'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: queryKeys.poseNetworks.detail(id) }),
  });
}
