import { poseNetworkSchema, type UpdatePoseNetworkBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

/** PUT /pose-networks/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export const updatePoseNetwork = ({ id, body }: { id: number; body: UpdatePoseNetworkBody }) =>
  api.send('PUT', `/pose-networks/${id}`, poseNetworkSchema, { body });

export function useUpdatePoseNetwork() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updatePoseNetwork,
    onSuccess: (network) => {
      qc.setQueryData(poseKeys.network(network.id), network);
      void qc.invalidateQueries({ queryKey: ['poses', 'networks', 'list'] });
    },
  });
}
