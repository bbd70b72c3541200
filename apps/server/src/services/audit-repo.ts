import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../db/schema.ts';
import { snakeRow, type CamelRow } from '../lib/naming.ts';

/** A new entry of `audit_logs`, under camelCase names. */
export type AuditRow = CamelRow<Omit<Selectable<AuditLogTable>, 'id'>>;

/** SQL of writing the audit log (its reading is modules/audit's). `db` may be a transaction. */
export const auditRepo = {
  async insert(db: Kysely<Database>, e: AuditRow): Promise<void> {
    await db.insertInto('audit_logs').values(snakeRow(e)).execute();
  },
};
