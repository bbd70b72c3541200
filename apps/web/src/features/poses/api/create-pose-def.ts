import { poseDefOps, type PoseDefInput } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** POST /pose-defs. */
export function useCreatePoseDef() {
  const qc = useQueryClient();
  return useOpMutation(poseDefOps.createPoseDef, {
    args: (body: PoseDefInput) => ({ body }),
    invalidates: ['poses'],
    onSuccess: (pose) => qc.setQueryData(queryKeys.poses.detail(pose.id), pose),
  });
}
