import { commandOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /commands/:id (409 IN_USE with one detail per flow using it: `flows.{id}`, its name). */
export function useDeleteCommand() {
  const qc = useQueryClient();
  return useOpMutation(commandOps.deleteCommand, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['commands'],
    onSuccess: (_, id) => qc.removeQueries({ queryKey: queryKeys.commands.detail(id) }),
  });
}
