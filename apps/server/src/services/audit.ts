import type { Kysely } from 'kysely';
import type { AuditAction, AuditTargetType } from '@portal/contract';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';
import { auditRepo } from './audit-repo.ts';

export interface AuditEntry {
  operatorId: number | null;
  organizationId: number | null;
  /** One of the contract's AUDIT_ACTIONS (each has a label in both languages on the web). */
  action: AuditAction;
  targetType?: AuditTargetType | null;
  targetId?: string | number | null;
  /**
   * The target's name; looked up from the target's row when not given (then `detail.name` when the
   * row is gone: a deletion recorded after it removed the row names the target there).
   */
  targetName?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown> | null;
}

export type Audit = ReturnType<typeof createAudit>;

/** The audit log: every change, login, logout and failed login (who, what, target, when, IP). */
export function createAudit(db: Kysely<Database>, clock: Clock) {
  return {
    async record(e: AuditEntry, trx: Kysely<Database> = db): Promise<void> {
      const targetId = e.targetId == null ? null : String(e.targetId);
      let targetName = e.targetName ?? null;
      if (e.targetName === undefined && e.targetType && targetId !== null) {
        targetName = (await auditRepo.targetNames(trx, e.targetType, [targetId])).get(targetId) ?? null;
      }
      // A deletion recorded after its row went names the target in its detail.
      if (targetName === null && typeof e.detail?.name === 'string') targetName = e.detail.name;
      await auditRepo.insert(trx, {
        at: clock().toISOString(),
        operatorId: e.operatorId,
        organizationId: e.organizationId,
        action: e.action,
        targetType: e.targetType ?? null,
        targetId,
        targetName: targetName === null ? null : targetName.slice(0, 200),
        ip: e.ip ?? null,
        detail: e.detail ? JSON.stringify(e.detail) : null,
      });
    },
  };
}

/**
 * Entries read back with their targets' names: the name stored when the entry was written, else
 * (entries older than migration 015) the target's name as it is now, looked up once per type.
 */
export async function withTargetNames<
  R extends { target_type: string | null; target_id: string | null; target_name: string | null },
>(db: Kysely<Database>, rows: R[]): Promise<Array<R & { target_name: string | null }>> {
  const missing = new Map<string, string[]>();
  for (const r of rows) {
    if (r.target_name !== null || r.target_type === null || r.target_id === null) continue;
    missing.set(r.target_type, [...(missing.get(r.target_type) ?? []), r.target_id]);
  }
  if (missing.size === 0) return rows;
  const found = new Map<string, Map<string, string>>();
  for (const [type, ids] of missing) found.set(type, await auditRepo.targetNames(db, type, ids));
  return rows.map((r) =>
    r.target_name !== null || r.target_type === null || r.target_id === null
      ? r
      : { ...r, target_name: found.get(r.target_type)?.get(r.target_id) ?? null },
  );
}
