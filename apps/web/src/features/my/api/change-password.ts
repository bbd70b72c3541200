import type { ChangePasswordBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /my/password: every other session is revoked. */
export const changePassword = (body: ChangePasswordBody) => api.command('POST', '/my/password', { body });

export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['my', 'devices'] }),
  });
};
