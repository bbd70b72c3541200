import { authOps, type AssertAuthCodeBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { client } from '@/lib/api-client';

/** POST /operators/assertAuthCode with the pending token of the 202 as bearer. */
export const assertAuthCode = ({ body, pendingToken }: { body: AssertAuthCodeBody; pendingToken: string }) =>
  client.call(authOps.assertAuthCode, { body, token: pendingToken, skipAuthRedirect: true });

export const useAssertAuthCode = () => useMutation({ mutationFn: assertAuthCode });
