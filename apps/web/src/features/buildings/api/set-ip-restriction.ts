import { buildingOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /buildings/:id/ip-restriction; 400 IP_LIST_EMPTY when turning it on with no rule. */
export const useSetIpRestriction = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(buildingOps.setIpRestriction, {
    args: (enabled: boolean) => ({ params: { id: buildingId }, body: { enabled } }),
    // The building and its lists show whether the restriction is on.
    invalidates: ['buildings'],
    onSuccess: (state) => queryClient.setQueryData(queryKeys.buildings.part(buildingId, 'ip-restriction'), state),
  });
};
