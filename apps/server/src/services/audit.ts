import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';
import { auditRepo } from './audit-repo.ts';

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
      await auditRepo.insert(trx, {
        at: clock().toISOString(),
        operatorId: e.operatorId,
        organizationId: e.organizationId,
        action: e.action,
        targetType: e.targetType ?? null,
        targetId: e.targetId == null ? null : String(e.targetId),
        ip: e.ip ?? null,
        detail: e.detail ? JSON.stringify(e.detail) : null,
      });
    },
  };
}
