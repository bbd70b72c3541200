import { robotFeatureOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** The console refreshes the robot's state and its message log this often. */
export const CONSOLE_POLL_MS = 1_000;

/** GET /robots/:id/console: the robot as it reports itself (last state and factsheet as received). */
export const robotConsoleQueryOptions = (robotId: number) => ({
  ...opQuery(robotFeatureOps.getRobotConsole, queryKeys.console.part(robotId, 'state'), { params: { id: robotId } }),
  refetchInterval: CONSOLE_POLL_MS,
  staleTime: 0,
});

export const useRobotConsole = (robotId: number) => useQuery(robotConsoleQueryOptions(robotId));
