import { z } from 'zod';

/**
 * One API operation, defined once: the server registers its route from it (schemas, access, status),
 * the OpenAPI document is generated from it, and the typed client (`client.ts`) calls it. See
 * docs/decisions/0006-api-operations.md.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation, checked by the server before validation:
 * - `public`: anyone; `pending`: the token of a login that still awaits its verification code;
 * - `user`: any signed-in operator; `admin`: operator types 1, 2 and 9 (not general operators);
 * - `system`: system administrators only.
 * Finer rules (area managers may not write organization data, tenancy) live in the services.
 */
export type Access = 'public' | 'pending' | 'user' | 'admin' | 'system';

/** 304: a conditional GET whose cached copy is still current (no body). */
export type SuccessStatus = 200 | 201 | 202 | 204 | 304;

export interface Operation {
  /** The operation id of the OpenAPI document; unique. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Below the API base, with `:name` parameters: `/buildings/:id`. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly access: Access;
  /** Callable while the operator must change their password first (the password change itself). */
  readonly allowDuringPasswordChange?: boolean;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** JSON body schema. */
  readonly body?: z.ZodType;
  /** The body is `multipart/form-data` (a file upload); the handler reads the parts itself. */
  readonly multipart?: boolean;
  /** Success answers by status; errors always answer the contract's error body. */
  readonly responses: Partial<Record<SuccessStatus, z.ZodType>>;
  /** A paged list: the answer is an array and `X-Total-Count` carries the total. */
  readonly list?: boolean;
}

/** Defines an operation, keeping its literal types for the server and the client. */
export const defineOperation = <const O extends Operation>(o: O): O => o;

/** Defines the operations of one resource under one OpenAPI tag. */
export function defineOperations<
  const T extends Record<string, Omit<Operation, 'id' | 'tags'> & { tags?: readonly string[] }>,
>(tag: string, ops: T): { [K in keyof T & string]: T[K] & { id: K; tags: readonly string[] } } {
  const out: Record<string, Operation> = {};
  for (const [id, o] of Object.entries(ops)) out[id] = { ...o, id, tags: o.tags ?? [tag] };
  return out as never;
}

/**
 * A path id: a positive decimal integer as written (`12`), nothing else. `0x10`, `1e3`, ` 1` and `01`
 * are refused instead of being read as other ids.
 */
export const idString = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'validation.id')
  .transform(Number)
  .pipe(z.number().int().max(2_147_483_647, 'validation.id'));

/** `:id` path parameters. */
export const idParams = z.object({ id: idString });

/** The `filter` query of a list (LoopBack-style JSON, checked by the server against the list's allow-list). */
export const listQuery = z.object({ filter: z.string().max(10_000).optional() });

/** A 204 answer. */
export const noContent = { 204: z.null() } as const;

// ---- types read off an operation ----

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

export type OpParams<O extends Operation> = O['params'] extends z.ZodObject ? z.output<O['params']> : undefined;
export type OpQuery<O extends Operation> = O['query'] extends z.ZodObject ? z.output<O['query']> : undefined;
export type OpBody<O extends Operation> = O['body'] extends z.ZodType ? z.output<O['body']> : undefined;

/** What the server's handler returns: any success answer's input shape. */
export type OpResult<O extends Operation> = {
  [S in keyof O['responses']]: In<O['responses'][S]>;
}[keyof O['responses']];
/** What the client reads: any success answer's output shape. */
export type OpResponse<O extends Operation> = {
  [S in keyof O['responses']]: Out<O['responses'][S]>;
}[keyof O['responses']];
/** The item of a list operation. */
export type OpItem<O extends Operation> = OpResponse<O> extends ReadonlyArray<infer T> ? T : never;

/** What a client passes: path parameters and query as the API takes them (ids as numbers). */
export type ParamsInput<O extends Operation> = O['params'] extends z.ZodObject
  ? { [K in keyof z.input<O['params']>]: string | number }
  : undefined;
export type QueryInput<O extends Operation> = O['query'] extends z.ZodObject
  ? QueryValues<z.input<O['query']>>
  : undefined;
type QueryValues<T> = { [K in keyof T]?: T[K] | object | number | boolean | null };
export type BodyInput<O extends Operation> = O['multipart'] extends true
  ? FormData
  : O['body'] extends z.ZodType
    ? z.input<O['body']>
    : undefined;

/** The success status an operation answers by default (the first declared). */
export const successStatus = (o: Operation): SuccessStatus =>
  Number(Object.keys(o.responses)[0] ?? 200) as SuccessStatus;

/** Fills a path's `:name` parameters (each encoded). */
export function buildPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(v));
  });
}

/** A query string of query values: objects (a list filter) are sent as JSON; undefined and null are left out. */
export function buildQuery(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    params.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** Whether a concrete path (`/buildings/12`) is one of an operation's (`/buildings/:id`). */
export function matchPath(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}
