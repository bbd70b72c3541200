import { assertAuthCodeBodySchema, loginBodySchema, loginChallengeSchema, sessionSchema } from '../../auth.ts';
import { defineOperations, noContent } from '../operation.ts';

/**
 * Signing in and out (docs/architecture.md "Sign-in"). Login answers 200 with a session, or 202 with
 * a verification-code challenge whose pending token is the bearer of `assertAuthCode`.
 */
export const authOps = defineOperations('auth', {
  login: {
    method: 'POST',
    path: '/operators/login',
    access: 'public',
    body: loginBodySchema,
    responses: { 200: sessionSchema, 202: loginChallengeSchema },
  },
  assertAuthCode: {
    method: 'POST',
    path: '/operators/assertAuthCode',
    access: 'pending',
    body: assertAuthCodeBodySchema,
    responses: { 200: sessionSchema },
  },
  logout: {
    method: 'POST',
    path: '/operators/logout',
    access: 'user',
    allowDuringPasswordChange: true,
    responses: noContent,
  },
});
