import { robotActionResultSchema, type ConsoleAction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /robots/:id/console/actions: 202 once the instant action is on its way (409 ROBOT_OFFLINE). */
export const sendConsoleAction = ({ robotId, action }: { robotId: number; action: ConsoleAction }) =>
  api.send('POST', `/robots/${robotId}/console/actions`, robotActionResultSchema, { body: { action } });

export const useSendConsoleAction = () => useMutation({ mutationFn: sendConsoleAction });
