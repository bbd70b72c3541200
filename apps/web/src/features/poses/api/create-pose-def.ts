import { poseDefSchema, type PoseDefInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { poseKeys } from './keys';

/** POST /pose-defs. */
export const createPoseDef = (body: PoseDefInput) => api.send('POST', '/pose-defs', poseDefSchema, { body });

export function useCreatePoseDef() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createPoseDef,
    onSuccess: (pose) => {
      qc.setQueryData(poseKeys.def(pose.id), pose);
      void qc.invalidateQueries({ queryKey: ['poses', 'defs'] });
    },
  });
}
