import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /operators/logout: revokes the token (204). */
export const logout = () => api.command('POST', '/operators/logout', { skipAuthRedirect: true });

export const useLogout = () => useMutation({ mutationFn: logout });
