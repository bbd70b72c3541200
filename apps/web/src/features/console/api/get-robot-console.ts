import { robotConsoleSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { CONSOLE_POLL_MS, consoleKeys } from './keys';

/** GET /robots/:id/console: the robot as it reports itself (last state and factsheet as received). */
export const getRobotConsole = (robotId: number, signal?: AbortSignal) =>
  api.get(`/robots/${robotId}/console`, robotConsoleSchema, { signal });

export const robotConsoleQueryOptions = (robotId: number) =>
  queryOptions({
    queryKey: consoleKeys.console(robotId),
    queryFn: ({ signal }) => getRobotConsole(robotId, signal),
    refetchInterval: CONSOLE_POLL_MS,
    staleTime: 0,
  });

export const useRobotConsole = (robotId: number) => useQuery(robotConsoleQueryOptions(robotId));
