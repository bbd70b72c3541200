import { commandOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /commands/:id/usage: the flows (the caller may see) that use the command. */
export const commandUsageQueryOptions = (id: number) =>
  opQuery(commandOps.getCommandUsage, queryKeys.commands.part(id, 'usage'), { params: { id } });

export const useCommandUsage = (id: number) => useQuery(commandUsageQueryOptions(id));
