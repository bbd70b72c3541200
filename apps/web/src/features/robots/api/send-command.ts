import { robotOps, type RobotCommand } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /robots/:id/commands: 202 once the command is on its way (409 ROBOT_OFFLINE when it cannot be). */
export const useSendCommand = () =>
  useOpMutation(robotOps.sendRobotCommand, {
    args: ({ id, command }: { id: number; command: RobotCommand }) => ({ params: { id }, body: { command } }),
    invalidates: [],
  });
