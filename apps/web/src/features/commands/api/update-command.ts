import { commandOps, type UpdateCommandBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /commands/:id with the updatedAt the edit is based on (409 STALE_UPDATE when it changed since). */
export function useUpdateCommand() {
  const qc = useQueryClient();
  return useOpMutation(commandOps.updateCommand, {
    args: ({ id, body }: { id: number; body: UpdateCommandBody }) => ({ params: { id }, body }),
    invalidates: ['commands'],
    onSuccess: (command) => qc.setQueryData(queryKeys.commands.detail(command.id), command),
  });
}
