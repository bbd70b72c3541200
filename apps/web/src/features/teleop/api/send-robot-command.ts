import { robotOps, type RobotCommand } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/**
 * POST /robots/:id/commands: pause or resume the robot's order (its patrol) from the operator screen,
 * so the operator can drive by hand and let the patrol continue afterwards. Quiet: no overlay over
 * the video.
 */
export const useRobotCommand = (robotId: number) =>
  useOpMutation(robotOps.sendRobotCommand, {
    args: (command: RobotCommand) => ({ params: { id: robotId }, body: { command }, quiet: true }),
    invalidates: [],
  });
