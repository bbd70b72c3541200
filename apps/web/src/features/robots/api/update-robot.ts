import { robotSchema, type UpdateRobotBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

/** PUT /robots/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export const updateRobot = ({ id, body }: { id: number; body: UpdateRobotBody }) =>
  api.send('PUT', `/robots/${id}`, robotSchema, { body });

export function useUpdateRobot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateRobot,
    onSuccess: (robot) => {
      qc.setQueryData(robotKeys.detail(robot.id), robot);
      void qc.invalidateQueries({ queryKey: ['robots', 'list'] });
      void qc.invalidateQueries({ queryKey: ['robots', 'history', robot.id] });
    },
  });
}
