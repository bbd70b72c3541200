import { myOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { profileQueryOptions } from './get-profile';

/** POST /my/email/confirm: the code mailed to the new address; the email changes now. */
export const useConfirmEmailChange = () => {
  const queryClient = useQueryClient();
  return useOpMutation(myOps.confirmEmailChange, {
    args: (code: string) => ({ body: { code } }),
    invalidates: ['my'],
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions().queryKey, profile),
  });
};

/** DELETE /my/email/pending: the pending change is dropped, the email stays. */
export const useCancelEmailChange = () =>
  useOpMutation(myOps.cancelEmailChange, { args: () => ({}), invalidates: ['my'] });
