import { commandMappingOps, type OperatorCommandMode } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * GET /robots/:id/command-mapping?mode=: the mapped commands the robot's controllers offer in a
 * command mode (its building's enabled common set and mode mapping). Under the command mappings'
 * root, so a change of a mapping refreshes it.
 */
export const useRobotCommandMapping = (robotId: number, mode: OperatorCommandMode) =>
  useQuery({
    ...opQuery(
      commandMappingOps.getRobotCommandMapping,
      queryKeys.commandMappings.options('robot', { robotId, mode }),
      { params: { id: robotId }, query: { mode } },
    ),
    staleTime: 30_000,
  });
