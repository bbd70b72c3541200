import { groupSchema, type groupInputSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys, type GroupKind } from './keys';

export const createGroup = (kind: GroupKind, body: z.infer<typeof groupInputSchema>) =>
  api.send('POST', `/${kind}s`, groupSchema, { body });

export const useCreateGroup = (kind: GroupKind) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.infer<typeof groupInputSchema>) => createGroup(kind, body),
    onSuccess: (g) => {
      void queryClient.invalidateQueries({ queryKey: buildingKeys.groups(g.buildingId, kind) });
      void queryClient.invalidateQueries({ queryKey: buildingKeys.detail(g.buildingId), exact: true });
    },
  });
};
