import { poseNetworkOps, type PoseNetworkInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** POST /pose-networks. */
export function useCreatePoseNetwork() {
  const qc = useQueryClient();
  return useOpMutation(poseNetworkOps.createPoseNetwork, {
    args: (body: PoseNetworkInput) => ({ body }),
    invalidates: ['poseNetworks'],
    onSuccess: (network) => qc.setQueryData(queryKeys.poseNetworks.detail(network.id), network),
  });
}
