import type { RobotCommand } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /robots/:id/commands: 202 once the command is on its way (409 ROBOT_OFFLINE when it cannot be). */
export const sendCommand = ({ id, command }: { id: number; command: RobotCommand }) =>
  api.command('POST', `/robots/${id}/commands`, { body: { command } });

export const useSendCommand = () => useMutation({ mutationFn: sendCommand });
