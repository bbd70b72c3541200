import type { Kysely } from 'kysely';
import type { Dialect } from './dialect.ts';
import * as m001 from './migrations/001-initial.ts';
import * as m002 from './migrations/002-data-management.ts';
import * as m003 from './migrations/003-robots.ts';
import * as m004 from './migrations/004-maps.ts';
import * as m005 from './migrations/005-poses.ts';
import * as m006 from './migrations/006-robot-features.ts';
import * as m007 from './migrations/007-list-indexes.ts';
import * as m009 from './migrations/009-login-lockouts.ts';
import * as m010 from './migrations/010-email-changes.ts';
import * as m011 from './migrations/011-building-recent-index.ts';
import * as m012 from './migrations/012-open-robot-models.ts';
import * as m013 from './migrations/013-prefecture-codes.ts';
import * as m014 from './migrations/014-building-time-zone.ts';
import * as m015 from './migrations/015-term-texts-languages-audit-names.ts';
import * as m016 from './migrations/016-flows.ts';
import * as m017 from './migrations/017-robot-activity.ts';
import * as m018 from './migrations/018-flow-runs.ts';
import * as m019 from './migrations/019-operator-list-covering-indexes.ts';
import * as m020 from './migrations/020-schedules.ts';
import * as m021 from './migrations/021-schedule-references.ts';
import * as m022 from './migrations/022-reports.ts';
import * as m023 from './migrations/023-report-exports.ts';
import * as m024 from './migrations/024-schedule-log-details.ts';
// 025 reads the operators table as every earlier migration leaves it.
import * as m025 from './migrations/025-list-speed.ts';
import * as m026 from './migrations/026-flow-run-schedule-line.ts';
import * as m027 from './migrations/027-notifications.ts';
import * as m028 from './migrations/028-thresholds.ts';
import * as m029 from './migrations/029-check-items.ts';
import * as m030 from './migrations/030-webhooks.ts';
import * as m031 from './migrations/031-schedule-reference-grids.ts';
import * as m033 from './migrations/033-webhook-notifications.ts';
import * as m034 from './migrations/034-triggers.ts';
import * as m035 from './migrations/035-notification-language-webhook-kinds.ts';
import * as m036 from './migrations/036-command-mappings.ts';
import * as m037 from './migrations/037-work-plans.ts';
import * as m038 from './migrations/038-building-counts.ts';

// In dialect.ts, so that the migrations (which use them) and this list do not import each other.
export { idColumn, type Dialect } from './dialect.ts';

interface Migration {
  name: string;
  up: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
}

/** Ordered list; never edit a migration that has shipped, add a new one. */
const migrations: Migration[] = [
  { name: '001-initial', up: m001.up },
  { name: '002-data-management', up: m002.up },
  { name: '003-robots', up: m003.up },
  { name: '004-maps', up: m004.up },
  { name: '005-poses', up: m005.up },
  { name: '006-robot-features', up: m006.up },
  { name: '007-list-indexes', up: m007.up },
  { name: '009-login-lockouts', up: m009.up },
  { name: '010-email-changes', up: m010.up },
  { name: '011-building-recent-index', up: m011.up },
  { name: '012-open-robot-models', up: m012.up },
  { name: '013-prefecture-codes', up: m013.up },
  { name: '014-building-time-zone', up: m014.up },
  { name: '015-term-texts-languages-audit-names', up: m015.up },
  { name: '016-flows', up: m016.up },
  { name: '017-robot-activity', up: m017.up },
  { name: '018-flow-runs', up: m018.up },
  { name: '019-operator-list-covering-indexes', up: m019.up },
  { name: '020-schedules', up: m020.up },
  { name: '021-schedule-references', up: m021.up },
  { name: '022-reports', up: m022.up },
  { name: '023-report-exports', up: m023.up },
  { name: '024-schedule-log-details', up: m024.up },
  { name: '025-list-speed', up: m025.up },
  { name: '026-flow-run-schedule-line', up: m026.up },
  { name: '027-notifications', up: m027.up },
  { name: '028-thresholds', up: m028.up },
  { name: '029-check-items', up: m029.up },
  { name: '030-webhooks', up: m030.up },
  { name: '031-schedule-reference-grids', up: m031.up },
  { name: '033-webhook-notifications', up: m033.up },
  { name: '034-triggers', up: m034.up },
  { name: '035-notification-language-webhook-kinds', up: m035.up },
  { name: '036-command-mappings', up: m036.up },
  { name: '037-work-plans', up: m037.up },
  { name: '038-building-counts', up: m038.up },
];

/**
 * Runs pending migrations in order, each in a transaction, recording them in `schema_migrations`.
 * On PostgreSQL an advisory lock keeps two starting servers from migrating at once.
 */
export async function migrate(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  const { sql } = await import('kysely');
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(5050)`.execute(trx);
    const done = new Set(
      (await sql<{ name: string }>`select name from schema_migrations`.execute(trx)).rows.map((r) => r.name),
    );
    // By name: migrations written at the same time may be listed in any order (024 runs after 022, 023).
    for (const m of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
      if (done.has(m.name)) continue;
      await m.up(trx, dialect);
      await sql`insert into schema_migrations (name, applied_at) values (${m.name}, ${new Date().toISOString()})`.execute(
        trx,
      );
      applied.push(m.name);
    }
  });
  return applied;
}
