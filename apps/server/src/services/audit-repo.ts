import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../db/schema.ts';
import { snakeRow, type CamelRow } from '../lib/naming.ts';

/** A new entry of `audit_logs`, under camelCase names. */
export type AuditRow = CamelRow<Omit<Selectable<AuditLogTable>, 'id'>>;

/** Longest stored target name (the column's size). */
const NAME_MAX = 200;

/** Integer ids of the given texts (a target id is stored as text); the others are skipped. */
const intIds = (ids: readonly string[]) => [...new Set(ids)].filter((v) => /^[1-9][0-9]{0,9}$/.test(v)).map(Number);

/**
 * The names of targets of one type by id (as text): the row's name as it is now, for the types that
 * have one. Deleted rows that are kept (operators, robots) still answer their name; rows gone answer
 * nothing. Types whose id is itself readable (an email, a login ID) answer the id.
 */
async function targetNames(db: Kysely<Database>, type: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const set = (rows: Array<{ id: number; name: string | null }>) => {
    for (const r of rows) if (r.name) out.set(String(r.id), r.name.slice(0, NAME_MAX));
  };
  const n = intIds(ids);
  if (type === 'email' || type === 'login-id') {
    for (const id of ids) out.set(id, id);
    return out;
  }
  if (n.length === 0) return out;
  switch (type) {
    case 'organization':
      set(await db.selectFrom('organizations').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'building':
      set(await db.selectFrom('buildings').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'floor':
    case 'floor-map':
      set(
        await db
          .selectFrom('floors')
          .innerJoin('buildings', 'buildings.id', 'floors.building_id')
          .select([
            'floors.id',
            sql<string>`${sql.ref('buildings.name')} || ' ' || ${sql.ref('floors.name')}`.as('name'),
          ])
          .where('floors.id', 'in', n)
          .execute(),
      );
      break;
    case 'operator':
      set(
        await db
          .selectFrom('operators')
          .select(['id', sql<string>`${sql.ref('last_name')} || ' ' || ${sql.ref('first_name')}`.as('name')])
          .where('id', 'in', n)
          .execute(),
      );
      break;
    case 'robot':
      set(await db.selectFrom('robots').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'pending-robot':
      set(await db.selectFrom('pending_robots').select(['id', 'username as name']).where('id', 'in', n).execute());
      break;
    case 'robot-group':
      set(await db.selectFrom('robot_groups').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'flow-group':
      set(await db.selectFrom('flow_groups').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'speech-text':
      set(await db.selectFrom('speech_texts').select(['id', 'text as name']).where('id', 'in', n).execute());
      break;
    case 'notif-target':
      set(await db.selectFrom('notification_targets').select(['id', 'room as name']).where('id', 'in', n).execute());
      break;
    case 'pose-def':
      set(await db.selectFrom('pose_defs').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'pose-network':
      set(await db.selectFrom('pose_networks').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'command':
      set(await db.selectFrom('commands').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'flow':
      set(await db.selectFrom('flows').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'trigger':
      set(await db.selectFrom('triggers').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'threshold-rule':
      set(await db.selectFrom('threshold_rules').select(['id', 'name']).where('id', 'in', n).execute());
      break;
    case 'schedule':
      set(await db.selectFrom('schedules').select(['id', 'title as name']).where('id', 'in', n).execute());
      break;
    case 'term-document':
      set(
        await db
          .selectFrom('term_documents')
          .select(['id', sql<string>`${sql.ref('kind')} || ' ' || ${sql.ref('version')}`.as('name')])
          .where('id', 'in', n)
          .execute(),
      );
      break;
    default:
      break;
  }
  return out;
}

/** SQL of writing the audit log (its reading is modules/audit's). `db` may be a transaction. */
export const auditRepo = {
  async insert(db: Kysely<Database>, e: AuditRow): Promise<void> {
    await db.insertInto('audit_logs').values(snakeRow(e)).execute();
  },
  targetNames,
};
