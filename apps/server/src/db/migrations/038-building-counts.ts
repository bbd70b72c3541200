import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Lists fast without the read caches (issue 10 item 7, docs/performance.md): `building_counts`, the
 * number of buildings per organization and status, kept by triggers in the same transaction as the
 * write (as `live_counts` keeps the operators', migration 025), so it is exact on either database
 * and whichever server wrote. The building list's total for no where or a where on the status alone
 * (the portal's lists ask for status 1) is read from it instead of counting the buildings on every
 * request. A general operator's list (one building) and any other where still count their rows.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('building_counts')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('building_counts_pk', ['organization_id', 'status'])
    .execute();
  await sql`insert into building_counts (organization_id, status, n)
    select organization_id, status, count(*) from buildings group by organization_id, status`.execute(db);

  if (dialect === 'postgres') {
    await sql`create function buildings_count() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update building_counts set n = n - 1 where organization_id = old.organization_id and status = old.status;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into building_counts (organization_id, status, n) values (new.organization_id, new.status, 1)
            on conflict (organization_id, status) do update set n = building_counts.n + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger buildings_count_insert after insert on buildings
      for each row execute function buildings_count()`.execute(db);
    await sql`create trigger buildings_count_delete after delete on buildings
      for each row execute function buildings_count()`.execute(db);
    await sql`create trigger buildings_count_update after update of status, organization_id on buildings
      for each row when (old.status is distinct from new.status or old.organization_id is distinct from new.organization_id)
      execute function buildings_count()`.execute(db);
    return;
  }

  await sql`create trigger buildings_count_insert after insert on buildings begin
      insert into building_counts (organization_id, status, n) values (new.organization_id, new.status, 1)
        on conflict (organization_id, status) do update set n = n + 1;
    end`.execute(db);
  await sql`create trigger buildings_count_delete after delete on buildings begin
      update building_counts set n = n - 1 where organization_id = old.organization_id and status = old.status;
    end`.execute(db);
  await sql`create trigger buildings_count_update after update of status, organization_id on buildings
    when old.status is not new.status or old.organization_id is not new.organization_id begin
      update building_counts set n = n - 1 where organization_id = old.organization_id and status = old.status;
      insert into building_counts (organization_id, status, n) values (new.organization_id, new.status, 1)
        on conflict (organization_id, status) do update set n = n + 1;
    end`.execute(db);
}
