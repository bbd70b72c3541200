import { groupOpsByKind, type updateGroupBodySchema } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { groupResource, type GroupKind } from './get-groups';

type Body = z.input<typeof updateGroupBodySchema>;

/** PATCH /robot-groups/:id with the `updatedAt` it was based on. */
export const useUpdateGroup = (kind: GroupKind, id: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(groupOpsByKind[kind].update, {
    args: (body: Body) => ({ params: { id }, body }),
    invalidates: ['buildings', groupResource(kind)],
    onSuccess: (g) => queryClient.setQueryData(queryKeys[groupResource(kind)].detail(id), g),
  });
};
