import { poseDefOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /pose-defs/:id (409 IN_USE naming the networks that hold it). */
export function useDeletePoseDef() {
  const qc = useQueryClient();
  return useOpMutation(poseDefOps.deletePoseDef, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['poses'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: queryKeys.poses.detail(id) }),
  });
}
