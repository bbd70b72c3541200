import { ipRestrictionSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

/** PUT /buildings/:id/ip-restriction; 400 IP_LIST_EMPTY when turning it on with no rule. */
export const setIpRestriction = (buildingId: number, enabled: boolean) =>
  api.send('PUT', `/buildings/${buildingId}/ip-restriction`, ipRestrictionSchema, { body: { enabled } });

export const useSetIpRestriction = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => setIpRestriction(buildingId, enabled),
    onSuccess: (state) => {
      queryClient.setQueryData(buildingKeys.ipRestriction(buildingId), state);
      void queryClient.invalidateQueries({ queryKey: buildingKeys.detail(buildingId), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['buildings', 'page'] });
    },
  });
};
