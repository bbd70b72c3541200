import { sessionSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionStore } from '@/lib/session';

/** POST /my/location (administrators): switch the current building; answers the new session. */
export const changeLocation = (buildingId: number) =>
  api.send('POST', '/my/location', sessionSchema, { body: { buildingId } });

export const useChangeLocation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeLocation,
    onSuccess: async (session) => {
      sessionStore.save(session);
      // Everything shown belongs to a building: refetch it all.
      await queryClient.invalidateQueries();
    },
  });
};
