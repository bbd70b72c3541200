/**
 * Database columns are snake_case, the API and the code camelCase: the renaming between the two,
 * written once and typed, so a row maps to its API shape without naming every field twice.
 */

/** `postalCode` → `postal_code` */
export type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : '';

/** `postal_code` → `postalCode` */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** A row with its columns under their camelCase names. */
export type CamelRow<R> = { [K in keyof R & string as CamelCase<K>]: R[K] };
/** An object with its fields under their snake_case column names. */
export type SnakeRow<R> = { [K in keyof R & string as SnakeCase<K>]: R[K] };

export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The row's columns (only `columns` when given) under their camelCase names, values as they are. */
export function camelRow<R extends object>(row: R): CamelRow<R>;
export function camelRow<R extends object, K extends keyof R & string>(
  row: R,
  columns: readonly K[],
): CamelRow<Pick<R, K>>;
export function camelRow(row: object, columns?: readonly string[]): Record<string, unknown> {
  const values = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const column of columns ?? Object.keys(values)) out[camelCase(column)] = values[column];
  return out;
}

/** The object's fields under their snake_case column names, values as they are (every own field). */
export function snakeRow<R extends object>(obj: R): SnakeRow<R> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(obj)) out[snakeCase(name)] = value;
  return out as SnakeRow<R>;
}
