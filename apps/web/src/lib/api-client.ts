import { ApiError, createApiClient, toApiError, type Operation } from '@portal/contract';
import type { z } from 'zod';
import { apiBase } from '@/config/env';
import { busyStore } from './busy';
import { sessionStore } from './session';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Bearer to use instead of the session's (the pending token of a 2-step login). */
  token?: string;
  /** Login and assertAuthCode: their 401/403 are answers for the form, not a lost session. */
  skipAuthRedirect?: boolean;
  signal?: AbortSignal;
  /**
   * A write that must not cover the screen with the loading overlay (spec section 7 shows it for
   * post, patch and delete): the operator screen's robot actions, which arrive while the operator
   * watches live video. The caller shows its own progress.
   */
  quiet?: boolean;
}

export interface ApiResponse {
  status: number;
  data: unknown;
  headers: Headers;
}

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

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const base = apiBase();
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Tells the session and contract handlers of an error answer (unless the caller handles it itself). */
function reportError(error: ApiError, skipAuthRedirect: boolean | undefined): void {
  if (skipAuthRedirect || !handlers) return;
  if (error.code === 'PASSWORD_CHANGE_REQUIRED') handlers.onPasswordChangeRequired(error);
  else if (error.status === 401 || error.status === 403) handlers.onUnauthenticated(error);
  else if (error.status === 498 || error.status === 499) handlers.onContractBlocked(error);
}

/**
 * The typed client of the contract's operations (`client.call(ops.getBuilding, { params: { id } })`).
 * Writes show the loading overlay unless `quiet`; lost sessions and contract states go to their handlers.
 */
export const client = createApiClient({
  baseUrl: () => apiBase(),
  token: () => sessionStore.get()?.token,
  fetch: (...args) => fetch(...args),
  around: async (op: Operation, options, run) => {
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

export async function apiRequest(method: Method, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const write = method !== 'GET' && !options.quiet;
  const token = options.token ?? sessionStore.get()?.token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  if (write) busyStore.start();
  let res: Response;
  let data: unknown;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
    data = await readBody(res);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'INTERNAL', 'Network error');
  } finally {
    if (write) busyStore.end();
  }

  if (res.ok) return { status: res.status, data, headers: res.headers };

  const error = toApiError(res.status, data);
  reportError(error, options.skipAuthRedirect);
  throw error;
}

/** Parses a successful answer with the contract schema, so the app never trusts a shape it did not check. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ApiError(200, 'INTERNAL', 'Unexpected response from the server');
  return result.data;
}

export { ApiError, isApiError, isErrorCode } from '@portal/contract';

export const api = {
  call: client.call,
  page: client.page,
  request: client.request,
  async get<S extends z.ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>> {
    const res = await apiRequest('GET', path, options);
    return parseWith(schema, res.data);
  },
  async send<S extends z.ZodType>(
    method: Exclude<Method, 'GET'>,
    path: string,
    schema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>> {
    const res = await apiRequest(method, path, options);
    return parseWith(schema, res.data);
  },
  /** A write that answers 204 (or a body the app does not need). */
  async command(method: Exclude<Method, 'GET'>, path: string, options?: RequestOptions): Promise<void> {
    await apiRequest(method, path, options);
  },
};
