import { poseNetworkOps, type UpdatePoseNetworkBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /pose-networks/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdatePoseNetwork() {
  const qc = useQueryClient();
  return useOpMutation(poseNetworkOps.updatePoseNetwork, {
    args: ({ id, body }: { id: number; body: UpdatePoseNetworkBody }) => ({ params: { id }, body }),
    invalidates: ['poseNetworks'],
    onSuccess: (network) => qc.setQueryData(queryKeys.poseNetworks.detail(network.id), network),
  });
}
