import { commandOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const commandQueryOptions = (id: number) =>
  opQuery(commandOps.getCommand, queryKeys.commands.detail(id), { params: { id } });

export const useCommand = (id: number) => useQuery(commandQueryOptions(id));
