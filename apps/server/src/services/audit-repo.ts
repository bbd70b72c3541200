import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface AuditRow {
  at: string;
  operatorId: number | null;
  organizationId: number | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  detail: string | null;
}

/** SQL of writing the audit log (its reading is modules/audit's). `db` may be a transaction. */
export const auditRepo = {
  async insert(db: Kysely<Database>, e: AuditRow): Promise<void> {
    await db
      .insertInto('audit_logs')
      .values({
        at: e.at,
        operator_id: e.operatorId,
        organization_id: e.organizationId,
        action: e.action,
        target_type: e.targetType,
        target_id: e.targetId,
        ip: e.ip,
        detail: e.detail,
      })
      .execute();
  },
};
