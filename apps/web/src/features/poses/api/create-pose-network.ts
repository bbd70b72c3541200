import { poseNetworkSchema, type PoseNetworkInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

/** POST /pose-networks. */
export const createPoseNetwork = (body: PoseNetworkInput) =>
  api.send('POST', '/pose-networks', poseNetworkSchema, { body });

export function useCreatePoseNetwork() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createPoseNetwork,
    onSuccess: (network) => {
      qc.setQueryData(poseKeys.network(network.id), network);
      void qc.invalidateQueries({ queryKey: ['poses', 'networks', 'list'] });
    },
  });
}
