import { robotLogSchema } from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '@/lib/api-client';
import { appendLog, clearLog, type ConsoleLog } from '../log-buffer';
import { CONSOLE_POLL_MS, consoleKeys } from './keys';

/**
 * GET /robots/:id/console/log?after={seq}: the messages after `after`. The server keeps a robot's
 * log only while a console asks for it (the first call starts it), so the console polls.
 */
export const getConsoleLog = (robotId: number, after?: number, signal?: AbortSignal) =>
  api.get(`/robots/${robotId}/console/log`, robotLogSchema, { query: { after }, signal });

/**
 * The robot's message log, polled every second from the last sequence number seen and kept here
 * (the newest CLIENT_LOG_LIMIT entries). `clear` empties what is shown and keeps polling from there.
 */
export function useConsoleLog(robotId: number) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: consoleKeys.log(robotId),
    queryFn: async ({ signal }): Promise<ConsoleLog> => {
      const before = qc.getQueryData<ConsoleLog>(consoleKeys.log(robotId));
      const page = await getConsoleLog(robotId, before?.lastSeq, signal);
      // Read again: "clear" may have run while the request was on its way.
      return appendLog(qc.getQueryData<ConsoleLog>(consoleKeys.log(robotId)), page);
    },
    refetchInterval: CONSOLE_POLL_MS,
    // A hidden tab keeps polling: the server drops messages nobody fetched within its last few hundred.
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
  const clear = useCallback(
    () => qc.setQueryData<ConsoleLog>(consoleKeys.log(robotId), (log) => (log ? clearLog(log) : log)),
    [qc, robotId],
  );
  return { ...query, clear };
}
