import { authOps } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { client } from '@/lib/api-client';

/** POST /operators/logout: revokes the token (204). */
export const logout = async (): Promise<void> => {
  await client.call(authOps.logout, { skipAuthRedirect: true });
};

export const useLogout = () => useMutation({ mutationFn: logout });
