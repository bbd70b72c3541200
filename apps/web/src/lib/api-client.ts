import { errorBodySchema, errorCodeSchema, type ErrorCode, type ErrorDetail } from '@portal/contract';
import type { z } from 'zod';
import { apiBase } from '@/config/env';
import { busyStore } from './busy';
import { sessionStore } from './session';

/** An error answered by the API (or the network), with the contract's stable code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

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

const fallbackCode = (status: number): ErrorCode => {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 498) return 'PAYMENT_INCOMPLETE';
  if (status === 499) return 'CONTRACT_ENDED';
  if (status === 400) return 'VALIDATION_FAILED';
  return 'INTERNAL';
};

function toApiError(status: number, data: unknown): ApiError {
  const body = errorBodySchema.safeParse(data);
  if (body.success) return new ApiError(status, body.data.error.code, body.data.error.message, body.data.error.details);
  return new ApiError(status, fallbackCode(status), `HTTP ${status}`);
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
  if (!options.skipAuthRedirect && handlers) {
    if (error.code === 'PASSWORD_CHANGE_REQUIRED') handlers.onPasswordChangeRequired(error);
    else if (res.status === 401 || res.status === 403) handlers.onUnauthenticated(error);
    else if (res.status === 498 || res.status === 499) handlers.onContractBlocked(error);
  }
  throw error;
}

/** Parses a successful answer with the contract schema, so the app never trusts a shape it did not check. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ApiError(200, 'INTERNAL', 'Unexpected response from the server');
  return result.data;
}

export const api = {
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

export const isErrorCode = (v: string): v is ErrorCode => errorCodeSchema.safeParse(v).success;
