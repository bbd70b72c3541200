import { authOps, createApiClient, languageSchema, type ApiError, type Operation } from '@portal/contract';
import i18n from 'i18next';
import { apiBase } from '@/config/env';
import { busyStore } from './busy';
import { sessionStore, type StoredSession } from './session';

export interface AuthFailureHandlers {
  /** 401/403: the session is gone; go to login keeping the current location. */
  onUnauthenticated: (error: ApiError) => void;
  /** 498/499: the contract state refuses access. */
  onContractBlocked: (error: ApiError) => void;
  /** 403 PASSWORD_CHANGE_REQUIRED: the session is fine, but the password must be changed first. */
  onPasswordChangeRequired: (error: ApiError) => void;
}

let handlers: AuthFailureHandlers | null = null;
export function setAuthFailureHandlers(h: AuthFailureHandlers | null): void {
  handlers = h;
}

/** Tells the session and contract handlers of an error answer (unless the caller handles it itself). */
function reportError(error: ApiError, skipAuthRedirect: boolean | undefined): void {
  if (skipAuthRedirect || !handlers) return;
  if (error.code === 'PASSWORD_CHANGE_REQUIRED') handlers.onPasswordChangeRequired(error);
  // A refusal of one action (restricted flow editing) is not a lost session: the screen shows it.
  else if (error.code === 'FLOW_EDIT_RESTRICTED') return;
  else if (error.status === 401 || error.status === 403) handlers.onUnauthenticated(error);
  else if (error.status === 498 || error.status === 499) handlers.onContractBlocked(error);
}

/**
 * Every call says the screen's language as `Accept-Language`: the server keeps it as the language
 * the account last used the portal in (the mails of accounts without a chosen language use it).
 */
function withUiLanguage(init: RequestInit | undefined): RequestInit | undefined {
  const lang = languageSchema.safeParse(i18n.language);
  if (!lang.success) return init;
  const headers = new Headers(init?.headers);
  headers.set('Accept-Language', lang.data);
  return { ...init, headers };
}

/**
 * Sign-out: the session being signed out, and the signal that aborts the requests sent in it. From
 * `beginSignOut` until the session is cleared or another is stored, no call but the sign-out itself
 * is sent, and the ones already on their way are aborted: a poll that reached the server after the
 * revoke was answered 401 (docs/known-issues.md had it), and a poll is no use to a signed-out user.
 */
let signingOut: StoredSession | null = null;
let inFlight = new AbortController();

/** Stops every call of the current session but the sign-out (features/auth/api/logout.ts, before revoking). */
export function beginSignOut(): void {
  signingOut = sessionStore.get();
  inFlight.abort();
  inFlight = new AbortController();
}

const closing = (op: Operation) => signingOut !== null && op !== authOps.logout && sessionStore.get() === signingOut;

const withSignOut = (init: RequestInit | undefined): RequestInit => {
  const signal = init?.signal ? AbortSignal.any([init.signal, inFlight.signal]) : inFlight.signal;
  return { ...init, signal };
};

/**
 * The typed client of the contract's operations (`client.call(ops.getBuilding, { params: { id } })`).
 * Writes show the loading overlay unless `quiet`; lost sessions and contract states go to their handlers.
 */
export const client = createApiClient({
  baseUrl: () => apiBase(),
  token: () => sessionStore.get()?.token,
  fetch: (input, init) => fetch(input, withSignOut(withUiLanguage(init))),
  around: async (op: Operation, options, run) => {
    if (closing(op)) throw new DOMException('Signing out', 'AbortError');
    const write = op.method !== 'GET' && !options.quiet;
    if (write) busyStore.start();
    try {
      return await run();
    } finally {
      if (write) busyStore.end();
    }
  },
  onError: (error, _op, options) => reportError(error, options.skipAuthRedirect),
});

export { ApiError, isApiError, isErrorCode } from '@portal/contract';
