import { poseDefOps, type UpdatePoseDefBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /pose-defs/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdatePoseDef() {
  const qc = useQueryClient();
  return useOpMutation(poseDefOps.updatePoseDef, {
    args: ({ id, body }: { id: number; body: UpdatePoseDefBody }) => ({ params: { id }, body }),
    // Networks show pose names.
    invalidates: ['poses', 'poseNetworks'],
    onSuccess: (pose) => qc.setQueryData(queryKeys.poses.detail(pose.id), pose),
  });
}
