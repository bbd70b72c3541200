import { authOps } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { beginSignOut, client } from '@/lib/api-client';

/**
 * POST /operators/logout: revokes the token (204). Nothing else of the session is asked for from
 * then on (polls included; `beginSignOut`): a request reaching the server after the revoke would be
 * refused, and the screens are about to go.
 */
export const logout = async (): Promise<void> => {
  beginSignOut();
  await client.call(authOps.logout, { skipAuthRedirect: true });
};

export const useLogout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    // Queries on their way are put back as they were (no error shown while the page is left).
    onMutate: () => void queryClient.cancelQueries(),
  });
};
