import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Lists fast without the read caches (issue 10 item 7, docs/decisions/0002-read-caches.md "Fourth round").
 *
 * 1. `live_counts`: the number of live (not deleted) operators per organization, kept by triggers in
 *    the same transaction as the write, so it is exact on either database and whichever server
 *    wrote. The operator list's total without a where is read from it (a row per organization)
 *    instead of counting every live operator on each request (about 1 ms of PostgreSQL's CPU for
 *    10,000 operators, a third of the list's cost there). A list with a where still counts its rows.
 *    `table_name` leaves room for other lists.
 * 2. PostgreSQL: trigram indexes (`pg_trgm`) for the case-insensitive search (`ilike '%text%'`) of the
 *    operator and building lists: a search of three characters or more reads the index instead of
 *    lower-casing every name. Shorter searches have no trigram and read the rows as before. The
 *    extension is trusted (a database owner may create it); where the server's role may not, the
 *    indexes are left out and search answers the same, only slower.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('live_counts')
    .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('live_counts_pk', ['table_name', 'organization_id'])
    .execute();
  await sql`insert into live_counts (table_name, organization_id, n)
    select 'operators', organization_id, count(*) from operators where deleted_at is null group by organization_id`.execute(
    db,
  );

  if (dialect === 'postgres') {
    await sql`create function operators_live_count() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.deleted_at is null then
          update live_counts set n = n - 1 where table_name = 'operators' and organization_id = old.organization_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then
          insert into live_counts (table_name, organization_id, n) values ('operators', new.organization_id, 1)
            on conflict (table_name, organization_id) do update set n = live_counts.n + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger operators_live_count_insert after insert on operators
      for each row execute function operators_live_count()`.execute(db);
    await sql`create trigger operators_live_count_delete after delete on operators
      for each row execute function operators_live_count()`.execute(db);
    await sql`create trigger operators_live_count_update after update of deleted_at, organization_id on operators
      for each row when (old.deleted_at is distinct from new.deleted_at or old.organization_id is distinct from new.organization_id)
      execute function operators_live_count()`.execute(db);

    // A failed statement spoils the migration's transaction: try the extension behind a savepoint.
    await sql`savepoint trigram`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`release savepoint trigram`.execute(db);
    } catch {
      await sql`rollback to savepoint trigram`.execute(db);
      return;
    }
    for (const column of ['last_name', 'first_name', 'login_id']) {
      await sql`create index ${sql.id(`operators_trgm_${column}`)} on operators using gin (${sql.id(column)} gin_trgm_ops) where deleted_at is null`.execute(
        db,
      );
    }
    await sql`create index buildings_trgm_name on buildings using gin (name gin_trgm_ops)`.execute(db);
    return;
  }

  await sql`create trigger operators_live_count_insert after insert on operators when new.deleted_at is null begin
      insert into live_counts (table_name, organization_id, n) values ('operators', new.organization_id, 1)
        on conflict (table_name, organization_id) do update set n = n + 1;
    end`.execute(db);
  await sql`create trigger operators_live_count_delete after delete on operators when old.deleted_at is null begin
      update live_counts set n = n - 1 where table_name = 'operators' and organization_id = old.organization_id;
    end`.execute(db);
  await sql`create trigger operators_live_count_update after update of deleted_at, organization_id on operators
    when old.deleted_at is not new.deleted_at or old.organization_id is not new.organization_id begin
      update live_counts set n = n - 1
        where table_name = 'operators' and organization_id = old.organization_id and old.deleted_at is null;
      insert into live_counts (table_name, organization_id, n) select 'operators', new.organization_id, 1
        where new.deleted_at is null
        on conflict (table_name, organization_id) do update set n = n + 1;
    end`.execute(db);
}
