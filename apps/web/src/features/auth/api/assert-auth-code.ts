import { sessionSchema, type AssertAuthCodeBody } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /operators/assertAuthCode with the pending token of the 202 as bearer. */
export const assertAuthCode = ({ body, pendingToken }: { body: AssertAuthCodeBody; pendingToken: string }) =>
  api.send('POST', '/operators/assertAuthCode', sessionSchema, { body, token: pendingToken, skipAuthRedirect: true });

export const useAssertAuthCode = () => useMutation({ mutationFn: assertAuthCode });
