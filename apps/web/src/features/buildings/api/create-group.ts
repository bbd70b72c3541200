import { groupOpsByKind, type groupInputSchema } from '@portal/contract';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { groupResource, type GroupKind } from './get-groups';

type Body = z.input<typeof groupInputSchema>;

/** A new group goes last; the building's views (its groups, the lists that include them) refresh. */
export const useCreateGroup = (kind: GroupKind) =>
  useOpMutation(groupOpsByKind[kind].create, {
    args: (body: Body) => ({ body }),
    invalidates: ['buildings', groupResource(kind)],
  });
