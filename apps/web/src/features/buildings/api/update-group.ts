import { groupSchema, type updateGroupBodySchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

type Body = z.infer<typeof updateGroupBodySchema>;

/** PATCH /robot-groups/:id with the `updatedAt` it was based on. */
export const updateGroup = (kind: GroupKind, id: number, body: Body) =>
  api.send('PATCH', `/${kind}s/${id}`, groupSchema, { body });

export const useUpdateGroup = (kind: GroupKind, id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => updateGroup(kind, id, body),
    onSuccess: (g) => {
      queryClient.setQueryData(buildingKeys.group(kind, id), g);
      void queryClient.invalidateQueries({ queryKey: buildingKeys.groups(g.buildingId, kind) });
    },
  });
};
