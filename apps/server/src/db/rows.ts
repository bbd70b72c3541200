import type { Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The row queries every repository needs, written once for any table with a numeric `id`: find by
 * id, exists, insert answering the id, and the versioned update (docs/architecture-decisions.md
 * "Concurrent edits"; `lib/versioned.ts` turns its answer into 404 or 409).
 */

/** Tables with a generated numeric `id`. */
export type IdTable = {
  [T in keyof Database]: Database[T] extends { id: Generated<number> } ? T : never;
}[keyof Database];

/** Tables with an `id` and a version (`updated_at`). */
export type VersionedTable = {
  [T in IdTable]: Database[T] extends { updated_at: string } ? T : never;
}[IdTable];

/** Equality conditions on columns of the table; null is `is null`. */
export type RowConditions<T extends keyof Database> = {
  [C in keyof Selectable<Database[T]> & string]?: (Selectable<Database[T]>[C] & (string | number)) | null;
};

/**
 * The generic queries below name the table and its columns through a type parameter, which Kysely
 * cannot check; they go through this untyped view, and their signatures carry the types instead.
 */
type AnyTables = Record<string, Record<string, unknown>>;
const untyped = (db: Kysely<Database>) => db as unknown as Kysely<AnyTables>;

/** The row of this id (every column, or only `columns`). */
export function findById<T extends IdTable>(
  db: Kysely<Database>,
  table: T,
  id: number,
): Promise<Selectable<Database[T]> | undefined>;
export function findById<T extends IdTable, C extends keyof Selectable<Database[T]> & string>(
  db: Kysely<Database>,
  table: T,
  id: number,
  columns: readonly C[],
): Promise<Pick<Selectable<Database[T]>, C> | undefined>;
export function findById(db: Kysely<Database>, table: IdTable, id: number, columns?: readonly string[]) {
  const q = untyped(db).selectFrom(table).where('id', '=', id);
  return (columns ? q.select(columns) : q.selectAll()).executeTakeFirst();
}

/** Whether a row of this id is there. */
export async function rowExists(db: Kysely<Database>, table: IdTable, id: number): Promise<boolean> {
  return (await untyped(db).selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Inserts one row; answers its id. */
export async function insertReturningId<T extends IdTable>(
  db: Kysely<Database>,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const row = await untyped(db)
    .insertInto(table as string)
    .values(values as Record<string, unknown>)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as number;
}

/**
 * Writes the row only while its stored version (`updated_at`) is still `version` and every condition
 * of `where` holds (a live row, the right organization); answers the rows written (0 or 1).
 */
export async function updateVersioned<T extends VersionedTable>(
  db: Kysely<Database>,
  table: T,
  id: number,
  version: string,
  values: Updateable<Database[T]>,
  where: RowConditions<T> = {},
): Promise<bigint> {
  let q = untyped(db)
    .updateTable(table as string)
    .set(values as Record<string, unknown>)
    .where('id', '=', id);
  for (const [column, value] of Object.entries(where)) {
    q = value === null ? q.where(column, 'is', null) : q.where(column, '=', value);
  }
  const result = await q.where('updated_at', '=', version).executeTakeFirst();
  return result.numUpdatedRows;
}

/** Writes the row of this id whatever its version. */
export async function updateById<T extends IdTable>(
  db: Kysely<Database>,
  table: T,
  id: number,
  values: Updateable<Database[T]>,
): Promise<void> {
  await untyped(db)
    .updateTable(table as string)
    .set(values as Record<string, unknown>)
    .where('id', '=', id)
    .execute();
}

/** Deletes the row of this id; answers whether it was there. */
export async function deleteById(db: Kysely<Database>, table: IdTable, id: number): Promise<boolean> {
  const result = await untyped(db).deleteFrom(table).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
