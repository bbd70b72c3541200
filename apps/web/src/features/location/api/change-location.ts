import { myOps } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '@/lib/api-client';
import { sessionStore } from '@/lib/session';

/** POST /my/location (administrators): switch the current building; answers the new session. */
export const useChangeLocation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (buildingId: number) => client.call(myOps.changeLocation, { body: { buildingId } }),
    onSuccess: async (session) => {
      sessionStore.save(session);
      // Everything shown belongs to a building: refetch it all.
      await queryClient.invalidateQueries();
    },
  });
};
