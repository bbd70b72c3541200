import type { ErrorCode } from '@portal/contract';
import { isApiError } from '@/lib/api-client';

export type LoginProblem =
  | { kind: 'code'; code: ErrorCode }
  | { kind: 'contract'; code: 'CONTRACT_ENDED' | 'PAYMENT_INCOMPLETE' }
  | { kind: 'failed' }
  | { kind: 'network' };

/** Spec section 8, "Login and access": which message a failed login shows. */
export function loginProblem(error: unknown): LoginProblem {
  if (!isApiError(error)) return { kind: 'failed' };
  if (error.status === 0) return { kind: 'network' };
  if (error.status === 499 || error.code === 'CONTRACT_ENDED') return { kind: 'contract', code: 'CONTRACT_ENDED' };
  if (error.status === 498 || error.code === 'PAYMENT_INCOMPLETE')
    return { kind: 'contract', code: 'PAYMENT_INCOMPLETE' };
  if (error.code === 'IP_NOT_ALLOWED' || error.code === 'ACCOUNT_DISABLED') return { kind: 'code', code: error.code };
  // Any other 403 is the lock-out (spec: "Other 403").
  if (error.status === 403) return { kind: 'code', code: 'ACCOUNT_LOCKED' };
  if (error.code === 'RATE_LIMITED') return { kind: 'code', code: 'RATE_LIMITED' };
  return { kind: 'failed' };
}
