import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';

export interface AuditEntry {
  operatorId: number | null;
  organizationId: number | null;
  action: string;
  targetType?: string | null;
  targetId?: string | number | null;
  ip?: string | null;
  detail?: Record<string, unknown> | null;
}

export type Audit = ReturnType<typeof createAudit>;

/** The audit log: every change, login, logout and failed login (who, what, target, when, IP). */
export function createAudit(db: Kysely<Database>, clock: Clock) {
  return {
    async record(e: AuditEntry, trx: Kysely<Database> = db): Promise<void> {
      await trx
        .insertInto('audit_logs')
        .values({
          at: clock().toISOString(),
          operator_id: e.operatorId,
          organization_id: e.organizationId,
          action: e.action,
          target_type: e.targetType ?? null,
          target_id: e.targetId == null ? null : String(e.targetId),
          ip: e.ip ?? null,
          detail: e.detail ? JSON.stringify(e.detail) : null,
        })
        .execute();
    },
  };
}
