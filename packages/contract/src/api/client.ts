import type { z } from 'zod';
import { errorBodySchema, errorCodeSchema, type ErrorCode, type ErrorDetail } from '../errors.ts';
import {
  buildPath,
  buildQuery,
  type BodyInput,
  type OpItem,
  type OpResponse,
  type Operation,
  type ParamsInput,
  type QueryInput,
} from './operation.ts';

/**
 * The one typed client of the API, built from the operations: the web app, the end-to-end tests and
 * the benchmarks use it. It sends JSON or multipart, checks every answer against the operation's
 * schema, reads paged lists with their total and turns error bodies into `ApiError`s with the
 * contract's codes.
 */

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

const fallbackCode = (status: number): ErrorCode => {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_FILE_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 498) return 'PAYMENT_INCOMPLETE';
  if (status === 499) return 'CONTRACT_ENDED';
  if (status === 400) return 'VALIDATION_FAILED';
  return 'INTERNAL';
};

/** The ApiError of an error answer: its error body, or a code from the status when the body is not one. */
export function toApiError(status: number, data: unknown): ApiError {
  const body = errorBodySchema.safeParse(data);
  if (body.success) return new ApiError(status, body.data.error.code, body.data.error.message, body.data.error.details);
  return new ApiError(status, fallbackCode(status), `HTTP ${status}`);
}

export const isErrorCode = (v: string): v is ErrorCode => errorCodeSchema.safeParse(v).success;

export interface CallOptions {
  /** Bearer to use instead of the client's (a pending login token, another user in a test). */
  token?: string | null;
  signal?: AbortSignal;
  /** Web app: a write that must not cover the screen with the loading overlay. */
  quiet?: boolean;
  /** Web app: a 401/403 that is an answer for the form (login), not a lost session. */
  skipAuthRedirect?: boolean;
}

type ParamsArg<O extends Operation> = O['params'] extends z.ZodObject
  ? { params: ParamsInput<O> }
  : { params?: undefined };
type QueryArg<O extends Operation> = O['query'] extends z.ZodObject ? { query?: QueryInput<O> } : { query?: undefined };
type BodyArg<O extends Operation> = O['multipart'] extends true
  ? { body: FormData }
  : O['body'] extends z.ZodType
    ? { body: BodyInput<O> }
    : { body?: undefined };

export type CallArgs<O extends Operation> = ParamsArg<O> & QueryArg<O> & BodyArg<O> & CallOptions;
type NeedsArgs<O extends Operation> = O['params'] extends z.ZodObject
  ? true
  : O['body'] extends z.ZodType
    ? true
    : O['multipart'] extends true
      ? true
      : false;
/** Arguments of a call: optional when the operation has no path parameters and no body. */
export type ArgsTuple<O extends Operation> = NeedsArgs<O> extends true ? [args: CallArgs<O>] : [args?: CallArgs<O>];

/** An answer, success or not, for callers that look at the status (tests). */
export type Answer<O extends Operation> =
  | { ok: true; status: number; data: OpResponse<O>; headers: Headers }
  | { ok: false; status: number; error: ApiError; headers: Headers };

export interface ClientConfig {
  /** The API base URL: `/api` in the browser, `http://127.0.0.1:PORT/api` in tests. */
  baseUrl: () => string;
  /** The bearer token of the current session, if any. */
  token?: () => string | null | undefined;
  fetch?: typeof fetch;
  /** Wraps each request (the web app's loading overlay for writes). */
  around?: <T>(op: Operation, options: CallOptions, run: () => Promise<T>) => Promise<T>;
  /** Told of every error answer before it is thrown (the web app's session and contract handling). */
  onError?: (error: ApiError, op: Operation, options: CallOptions) => void;
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

export function createApiClient(config: ClientConfig) {
  const doFetch = (...a: Parameters<typeof fetch>) => (config.fetch ?? fetch)(...a);

  async function send<O extends Operation>(op: O, args: CallArgs<O> | undefined): Promise<Answer<O>> {
    const a = (args ?? {}) as CallOptions & {
      params?: Record<string, string | number>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const url = `${config.baseUrl()}${buildPath(op.path, a.params)}${buildQuery(a.query)}`;
    const token = a.token === undefined ? config.token?.() : a.token;
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | FormData | undefined;
    if (a.body instanceof FormData) body = a.body;
    else if (a.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(a.body);
    }
    if (token) headers.Authorization = `Bearer ${token}`;

    const run = async () => {
      let res: Response;
      let data: unknown;
      try {
        res = await doFetch(url, { method: op.method, headers, body, credentials: 'include', signal: a.signal });
        data = await readBody(res);
      } catch (e) {
        if (e instanceof Error && e.name === 'AbortError') throw e;
        const error = new ApiError(0, 'INTERNAL', 'Network error');
        return { ok: false as const, status: 0, error, headers: new Headers() };
      }
      if (!res.ok)
        return { ok: false as const, status: res.status, error: toApiError(res.status, data), headers: res.headers };
      const schema = op.responses[res.status as keyof Operation['responses']] ?? Object.values(op.responses)[0];
      const parsed = schema ? schema.safeParse(data) : { success: true as const, data };
      if (!parsed.success) {
        const error = new ApiError(res.status, 'INTERNAL', `Unexpected response from the server (${op.id})`);
        return { ok: false as const, status: res.status, error, headers: res.headers };
      }
      return { ok: true as const, status: res.status, data: parsed.data as OpResponse<O>, headers: res.headers };
    };
    const answer = await (config.around ? config.around(op, a, run) : run());
    if (!answer.ok) config.onError?.(answer.error, op, a);
    return answer;
  }

  async function call<O extends Operation>(op: O, ...[args]: ArgsTuple<O>): Promise<OpResponse<O>> {
    const answer = await send(op, args);
    if (!answer.ok) throw answer.error;
    return answer.data;
  }

  return {
    /** Calls an operation; resolves to its checked answer, rejects with an ApiError. */
    call,
    /** Calls a list operation; resolves to the page's items and the total of the whole list. */
    async page<O extends Operation>(op: O, ...[args]: ArgsTuple<O>): Promise<{ items: OpItem<O>[]; total: number }> {
      const answer = await send(op, args);
      if (!answer.ok) throw answer.error;
      const items = answer.data as OpItem<O>[];
      const n = Number(answer.headers.get('x-total-count'));
      return { items, total: answer.headers.has('x-total-count') && Number.isInteger(n) ? n : items.length };
    },
    /** Calls an operation and answers whatever came back, without throwing on an error answer. */
    async request<O extends Operation>(op: O, ...[args]: ArgsTuple<O>): Promise<Answer<O>> {
      return send(op, args);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
