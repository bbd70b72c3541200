import { authOps, loginChallengeSchema, type LoginBody, type LoginChallenge, type Session } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { client } from '@/lib/api-client';

export type LoginResult = { kind: 'session'; session: Session } | { kind: 'challenge'; challenge: LoginChallenge };

/** POST /operators/login: 200 is a session, 202 a verification-code challenge. */
export async function login(body: LoginBody): Promise<LoginResult> {
  const answer = await client.request(authOps.login, { body, skipAuthRedirect: true });
  if (!answer.ok) throw answer.error;
  if (answer.status === 202) return { kind: 'challenge', challenge: loginChallengeSchema.parse(answer.data) };
  return { kind: 'session', session: answer.data as Session };
}

export const useLogin = () => useMutation({ mutationFn: login });
