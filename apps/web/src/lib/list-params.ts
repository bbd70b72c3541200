import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';

/** A list's sort order as it stands in the URL: `?sort=name` or `?sort=-name` (descending). */
export interface Sort<C extends string> {
  column: C;
  desc: boolean;
}

/** A positive integer from the URL (page, id filter), or null. */
export function positiveInt(v: string | null | undefined): number | null {
  const n = Number(v);
  return v !== null && v !== undefined && v !== '' && Number.isInteger(n) && n >= 1 ? n : null;
}

/** `?sort=-column` read back, or null for a column the list does not sort by. */
export function parseSort<C extends string>(raw: string | null, columns: readonly C[]): Sort<C> | null {
  const value = raw ?? '';
  const desc = value.startsWith('-');
  const column = desc ? value.slice(1) : value;
  return (columns as readonly string[]).includes(column) ? { column: column as C, desc } : null;
}

export const sortParam = <C extends string>(sort: Sort<C> | null): string | undefined =>
  sort ? `${sort.desc ? '-' : ''}${sort.column}` : undefined;

/** The LoopBack `order` of a sort, or the list's default order. */
export const sortOrder = <C extends string>(sort: Sort<C> | null, fallback: string): string =>
  sort ? `${sort.column} ${sort.desc ? 'DESC' : 'ASC'}` : fallback;

/** The server takes the pattern as given and refuses backslashes (filter.ts), so they are dropped. */
export const likePattern = (q: string) => `%${q.replace(/\\/g, '')}%`;

/** Total of a list call: the X-Total-Count header (the page length when it is missing). */
export function totalOf(headers: Headers, fallback: number): number {
  const n = Number(headers.get('x-total-count'));
  return headers.has('x-total-count') && Number.isInteger(n) ? n : fallback;
}

/** The `where` of several conditions: none, the one, or their `and`. */
export const whereOf = <W>(and: W[]): { where?: W | { and: W[] } } =>
  and.length === 0 ? {} : { where: and.length === 1 ? and[0] : { and } };

// ---------------------------------------------------------------------------------------------------
// URL-held list state: one zod object of codecs, each between a search parameter (a string, or
// undefined when absent) and the typed value the screen uses. A value that encodes to undefined (the
// default: page 1, no search, no filter) is left out of the URL.

const urlText = z.string().optional();

/** A search parameter and its typed value: `decode` never fails (a bad value is the default). */
export function urlParam<T>(decode: (raw: string | undefined) => T, encode: (value: T) => string | undefined) {
  return z.codec(urlText, z.custom<T>(), { decode: (raw) => decode(raw), encode: (value) => encode(value) });
}

/** The page fields of list schemas, whatever their key (`page`, `activityPage`): a change of the rest resets them. */
const pageParams = new WeakSet<object>();

/** The search parameters the list state of a screen is made of. */
export const listParam = {
  /**
   * `?page=2` (1 when absent or invalid; page 1 is left out). Under any key: a screen with two lists
   * names them apart (`activityPage`), and each goes back to 1 when anything else of its state changes.
   */
  page: () => {
    const param = urlParam<number>(
      (raw) => positiveInt(raw) ?? 1,
      (page) => (page > 1 ? String(page) : undefined),
    );
    pageParams.add(param);
    return param;
  },
  /** A trimmed text (a search): empty when absent. */
  text: () =>
    urlParam<string>(
      (raw) => (raw ?? '').trim(),
      (text) => text || undefined,
    ),
  /** A record id (`?building=10`), or null. */
  id: () => urlParam<number | null>(positiveInt, (id) => (id === null ? undefined : String(id))),
  /**
   * `?sort=name` / `?sort=-name` over the columns the server sorts by, or null (the list's default). With
   * a `fallback`, that sort stands for an absent or invalid value (and is left out of the URL).
   */
  sort: <C extends string>(columns: readonly C[], fallback: Sort<C> | null = null) =>
    urlParam<Sort<C> | null>(
      (raw) => parseSort(raw ?? null, columns) ?? fallback,
      (sort) => (sort && fallback && sortParam(sort) === sortParam(fallback) ? undefined : sortParam(sort)),
    ),
  /** One of a set of values (numbers are read as numbers), or null. */
  oneOf: <T extends string | number>(values: readonly T[]) =>
    urlParam<T | null>(
      (raw) =>
        raw === undefined || raw === ''
          ? null
          : (values.find((v) => (typeof v === 'number' ? v === Number(raw) : v === raw)) ?? null),
      (value) => (value === null ? undefined : String(value)),
    ),
  /** A number code that a contract schema accepts (`?type=0`), or null. */
  code: <T extends number>(codes: z.ZodType<T>) =>
    urlParam<T | null>(
      (raw) => {
        const parsed = codes.safeParse(raw === undefined || raw === '' ? NaN : Number(raw));
        return parsed.success ? parsed.data : null;
      },
      (value) => (value === null ? undefined : String(value)),
    ),
  /** A day `YYYY-MM-DD`, or empty. */
  day: () =>
    urlParam<string>(
      (raw) => (raw !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : ''),
      (day) => day || undefined,
    ),
};

/** The zod object of a list's search parameters (each field a {@link urlParam}). */
export type ListParamsSchema = z.ZodObject<Record<string, z.ZodType<unknown, string | undefined>>>;

/** A list's state read from the URL. */
export function readListParams<S extends ListParamsSchema>(schema: S, search: URLSearchParams): z.output<S> {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) raw[key] = search.get(key) ?? undefined;
  return z.decode(schema, raw as z.input<S>);
}

/** The search parameters of a list state (in the schema's order; defaults left out). */
export function writeListParams<S extends ListParamsSchema>(schema: S, state: z.output<S>): URLSearchParams {
  const encoded = z.encode(schema, state) as Record<string, string | undefined>;
  const out = new URLSearchParams();
  for (const key of Object.keys(schema.shape)) {
    const value = encoded[key];
    if (value !== undefined) out.set(key, value);
  }
  return out;
}

export interface ListParams<T> {
  /** The state as the URL holds it. */
  params: T;
  /**
   * A new state: the changed values over the current ones. Any change but the page's starts again on
   * page 1 (every `listParam.page()` field, whatever its key). Search parameters that are not the list's stay in the URL.
   */
  setParams: (change: Partial<T>) => void;
}

/** A list screen's search, filters, sort and page, held in the URL through a zod schema of {@link listParam}s. */
export function useListParams<S extends ListParamsSchema>(schema: S): ListParams<z.output<S>> {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => readListParams(schema, search), [schema, search]);
  const setParams = useCallback(
    (change: Partial<z.output<S>>) => {
      setSearch((prev) => {
        const current = readListParams(schema, prev);
        const next = { ...current, ...change };
        for (const [key, field] of Object.entries(schema.shape)) {
          if (pageParams.has(field) && !(key in change)) (next as Record<string, unknown>)[key] = 1;
        }
        const out = writeListParams(schema, next);
        for (const [key, value] of prev) if (!(key in schema.shape)) out.append(key, value);
        return out;
      });
    },
    [schema, setSearch],
  );
  return { params, setParams };
}
