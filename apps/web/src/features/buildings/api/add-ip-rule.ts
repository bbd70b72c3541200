import { ipRuleSchema, type ipRuleInputSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

type Body = z.infer<typeof ipRuleInputSchema>;

export const addIpRule = (buildingId: number, body: Body) =>
  api.send('POST', `/buildings/${buildingId}/ip-rules`, ipRuleSchema, { body });

export const useAddIpRule = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => addIpRule(buildingId, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildingKeys.ipRestriction(buildingId) }),
  });
};
