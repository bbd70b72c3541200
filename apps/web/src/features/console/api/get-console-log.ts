import { robotFeatureOps } from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { client } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { appendLog, clearLog, type ConsoleLog } from '../log-buffer';
import { CONSOLE_POLL_MS } from './get-robot-console';

/**
 * The robot's message log (GET /robots/:id/console/log?after={seq}), polled every second from the
 * last sequence number seen and kept here (the newest CLIENT_LOG_LIMIT entries). The server keeps a
 * robot's log only while a console asks for it (the first call starts it), so the console polls.
 * `clear` empties what is shown and keeps polling from there.
 */
export function useConsoleLog(robotId: number) {
  const qc = useQueryClient();
  const key = queryKeys.console.part(robotId, 'log');
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<ConsoleLog> => {
      const before = qc.getQueryData<ConsoleLog>(key);
      const page = await client.call(robotFeatureOps.getRobotConsoleLog, {
        params: { id: robotId },
        query: { after: before?.lastSeq },
        signal,
      });
      // Read again: "clear" may have run while the request was on its way.
      return appendLog(qc.getQueryData<ConsoleLog>(key), page);
    },
    refetchInterval: CONSOLE_POLL_MS,
    // A hidden tab keeps polling: the server drops messages nobody fetched within its last few hundred.
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
  const clear = useCallback(
    () => qc.setQueryData<ConsoleLog>(queryKeys.console.part(robotId, 'log'), (log) => (log ? clearLog(log) : log)),
    [qc, robotId],
  );
  return { ...query, clear };
}
