import { robotFeatureOps, type ConsoleAction } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /robots/:id/console/actions: 202 once the instant action is on its way (409 ROBOT_OFFLINE). */
export const useSendConsoleAction = () =>
  useOpMutation(robotFeatureOps.sendRobotConsoleAction, {
    args: ({ robotId, action }: { robotId: number; action: ConsoleAction }) => ({
      params: { id: robotId },
      body: { action },
    }),
    invalidates: [],
  });
