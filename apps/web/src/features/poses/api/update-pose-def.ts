import { poseDefSchema, type UpdatePoseDefBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

/** PUT /pose-defs/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export const updatePoseDef = ({ id, body }: { id: number; body: UpdatePoseDefBody }) =>
  api.send('PUT', `/pose-defs/${id}`, poseDefSchema, { body });

export function useUpdatePoseDef() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updatePoseDef,
    onSuccess: (pose) => {
      qc.setQueryData(poseKeys.def(pose.id), pose);
      void qc.invalidateQueries({ queryKey: ['poses', 'defs', 'list'] });
      void qc.invalidateQueries({ queryKey: ['poses', 'defs', 'options'] });
      // Networks show pose names.
      void qc.invalidateQueries({ queryKey: ['poses', 'networks'] });
    },
  });
}
