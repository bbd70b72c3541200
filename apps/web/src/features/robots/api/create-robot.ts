import { createdRobotSchema, type RobotInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

/** POST /robots: 201 with the robot and its broker credentials (shown once). */
export const createRobot = (body: RobotInput) => api.send('POST', '/robots', createdRobotSchema, { body });

export function useCreateRobot() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createRobot,
    onSuccess: (created) => {
      qc.setQueryData(robotKeys.detail(created.robot.id), created.robot);
      void qc.invalidateQueries({ queryKey: robotKeys.all });
    },
  });
}
