import {
  errorBodySchema,
  errorStatus,
  matchPath,
  type ErrorCode,
  type ErrorDetail,
  type Operation,
} from '@portal/contract';
import { vi } from 'vitest';
import type { z } from 'zod';

export interface ApiCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
}
type Handler = (call: ApiCall) => Response | Promise<Response>;
export type Routes = Record<string, Handler>;

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A success answer, checked against the contract schema so a mock can never drift from the API. */
export const reply = <S extends z.ZodType>(schema: S, value: z.input<S>, status = 200): Response =>
  json(status, schema.parse(value));

export const noContent = (): Response => new Response(null, { status: 204 });

export const replyError = (code: ErrorCode, details?: ErrorDetail[]): Response => {
  const statusCode = errorStatus[code];
  return json(statusCode, errorBodySchema.parse({ error: { statusCode, code, message: code, details } }));
};

/**
 * The mock key of an operation: `on(buildingOps.getBuilding)` answers every building id,
 * `on(buildingOps.getBuilding, { id: 3 })` only building 3.
 */
export function on(op: Operation, params?: Record<string, string | number>): string {
  const path = op.path.replace(/:([A-Za-z0-9_]+)/g, (seg, name: string) =>
    params?.[name] === undefined ? seg : encodeURIComponent(String(params[name])),
  );
  return `${op.method} /api${path}`;
}

/** The handler of a call: an exact "METHOD /api/path" key first, then an operation's path pattern. */
function handlerOf(routes: Routes, method: string, path: string): Handler | undefined {
  const exact = routes[`${method} ${path}`];
  if (exact) return exact;
  for (const [key, handler] of Object.entries(routes)) {
    const [m, pattern] = key.split(' ');
    if (m === method && pattern?.includes('/:') && matchPath(pattern, path)) return handler;
  }
  return undefined;
}

/**
 * Stubs fetch at the edge: routes are keyed by operation (`[on(ops.getBuilding)]: ...`) or
 * "METHOD /api/path"; anything else is a 404.
 */
export function mockApi(routes: Routes) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const form = init?.body instanceof FormData ? init.body : undefined;
    const call: ApiCall = {
      method,
      path: url.pathname,
      search: url.searchParams,
      body: form ?? (text === undefined ? undefined : (JSON.parse(text) as unknown)),
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    const handler = handlerOf(routes, method, url.pathname);
    return handler ? handler(call) : replyError('NOT_FOUND');
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
