import {
  loginChallengeSchema,
  sessionSchema,
  type LoginBody,
  type LoginChallenge,
  type Session,
} from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, parseWith } from '@/lib/api-client';

export type LoginResult = { kind: 'session'; session: Session } | { kind: 'challenge'; challenge: LoginChallenge };

/** POST /operators/login: 200 is a session, 202 a verification-code challenge. */
export async function login(body: LoginBody): Promise<LoginResult> {
  const res = await apiRequest('POST', '/operators/login', { body, skipAuthRedirect: true });
  if (res.status === 202) return { kind: 'challenge', challenge: parseWith(loginChallengeSchema, res.data) };
  return { kind: 'session', session: parseWith(sessionSchema, res.data) };
}

export const useLogin = () => useMutation({ mutationFn: login });
