import { buildingOps, type ipRuleInputSchema } from '@portal/contract';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';

type Body = z.input<typeof ipRuleInputSchema>;

export const useAddIpRule = (buildingId: number) =>
  useOpMutation(buildingOps.createIpRule, {
    args: (body: Body) => ({ params: { id: buildingId }, body }),
    invalidates: ['buildings'],
  });
