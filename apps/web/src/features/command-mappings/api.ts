import { commandMappingOps, type CommandMappingInput, type UpdateCommandMappingBody } from '@portal/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { commandMappingListFilter, type CommandMappingListParams } from './list-params';

const keys = queryKeys.commandMappings;

/** GET /command-mappings?filter=: one page and the total. */
export const useCommandMappings = (params: CommandMappingListParams) => {
  const filter = commandMappingListFilter(params);
  return useQuery({
    ...opPageQuery(commandMappingOps.listCommandMappings, keys.list(filter), { query: { filter } }),
    placeholderData: keepPreviousData,
  });
};

export const useCommandMapping = (id: number) =>
  useQuery(opQuery(commandMappingOps.getCommandMapping, keys.detail(id), { params: { id } }));

export function useCreateCommandMapping() {
  const qc = useQueryClient();
  return useOpMutation(commandMappingOps.createCommandMapping, {
    args: (body: CommandMappingInput) => ({ body }),
    invalidates: ['commandMappings'],
    onSuccess: (m) => qc.setQueryData(keys.detail(m.id), m),
  });
}

/** PUT /command-mappings/:id with the version the change is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateCommandMapping() {
  const qc = useQueryClient();
  return useOpMutation(commandMappingOps.updateCommandMapping, {
    args: ({ id, body }: { id: number; body: UpdateCommandMappingBody }) => ({ params: { id }, body }),
    invalidates: ['commandMappings'],
    onSuccess: (m) => qc.setQueryData(keys.detail(m.id), m),
  });
}

export function useDeleteCommandMapping() {
  const qc = useQueryClient();
  return useOpMutation(commandMappingOps.deleteCommandMapping, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['commandMappings'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: keys.detail(id) }),
  });
}
