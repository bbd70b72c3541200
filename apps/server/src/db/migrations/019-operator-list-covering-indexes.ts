import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * On SQLite the operator list reads only these indexes ("covering index"), never the table, to page,
 * count and search its live operators.
 *
 * The indexes of migration 002 held `(last_name, id)`: SQLite counts a partial index as covering only
 * when every column the query names is in it, and `deleted_at` (the partial index's own condition)
 * was not, so each page past the first read a table row per skipped operator, and a name search read
 * the whole table row by row in index order (about 10 ms for 10,000 operators). With `deleted_at`
 * and the columns the list filters and searches on (first name, login ID, type, building) in the
 * index, a page of 5,000 skipped rows and the search's count read the index alone (3-4 times faster).
 * The same names and the same leading columns, so every plan that used them still does.
 *
 * PostgreSQL already scans the old indexes index-only (a partial index's condition need not be one of
 * its columns there), and a search's `ilike` count reads every row whichever index there is; the wider
 * index only made its page walks and counts read three times the pages. So it keeps migration 002's.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  const extra = sql.raw('first_name, login_id, type, building_id, deleted_at');
  await sql`drop index operators_live_name`.execute(db);
  await sql`drop index operators_live_org_name`.execute(db);
  await sql`create index operators_live_name on operators (last_name, id, ${extra}) where deleted_at is null`.execute(
    db,
  );
  await sql`create index operators_live_org_name on operators (organization_id, last_name, id, ${extra}) where deleted_at is null`.execute(
    db,
  );
}
