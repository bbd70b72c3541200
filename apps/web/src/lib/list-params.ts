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

/** Search parameters of a list state; undefined values (defaults) are left out of the URL. */
export function toSearchParams(query: Record<string, string | number | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out.set(k, String(v));
  return out;
}

/** Total of a list call: the X-Total-Count header (the page length when it is missing). */
export function totalOf(headers: Headers, fallback: number): number {
  const n = Number(headers.get('x-total-count'));
  return headers.has('x-total-count') && Number.isInteger(n) ? n : fallback;
}
