import { useMutation } from '@tanstack/react-query';
import type { RobotCommand } from '@portal/contract';
import { api } from '@/lib/api-client';

/**
 * POST /robots/:id/commands: pause or resume the robot's order (its patrol) from the operator screen,
 * so the operator can drive by hand and let the patrol continue afterwards. Quiet: no overlay over
 * the video.
 */
export const sendRobotCommand = (robotId: number, command: RobotCommand) =>
  api.command('POST', `/robots/${robotId}/commands`, { body: { command }, quiet: true });

export const useRobotCommand = (robotId: number) =>
  useMutation({ mutationFn: (command: RobotCommand) => sendRobotCommand(robotId, command) });
