import { commandOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { commandListFilter, type CommandListParams } from '../list-params';

/** GET /commands?filter=: one page and the X-Total-Count total. */
export const commandsQueryOptions = (params: CommandListParams) => {
  const filter = commandListFilter(params);
  return {
    ...opPageQuery(commandOps.listCommands, queryKeys.commands.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  };
};

export const useCommands = (params: CommandListParams) => useQuery(commandsQueryOptions(params));
