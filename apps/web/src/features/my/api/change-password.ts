import { myOps, type ChangePasswordBody } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /my/password: every other session is revoked (the devices list refreshes). */
export const useChangePassword = () =>
  useOpMutation(myOps.changePassword, {
    args: (body: ChangePasswordBody) => ({ body }),
    invalidates: ['my'],
  });
