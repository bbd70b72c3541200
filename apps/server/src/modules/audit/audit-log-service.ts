import { OperatorType, type AuditLogEntry } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD } from '../../lib/filter-spec.ts';
import { auditLogRepo } from './audit-log-repo.ts';
import { withTargetNames } from '../../services/audit.ts';
import { assertAdministrator } from '../organizations/admin-rules.ts';

/** Allow-list of `GET /audit-logs?filter=`. */
export const auditLogFilter = filterSpec(
  'audit_logs',
  {
    ...ID_FIELD,
    at: 'date',
    operatorId: 'integer',
    organizationId: 'integer',
    action: 'string',
    targetType: 'string',
    targetId: 'string',
    ip: 'string',
  },
  { defaultOrder: 'at DESC' },
);

/** The stored detail (JSON text) as an object; anything else (absent, unreadable, not an object) is null. */
export function parseDetail(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The audit log of an administrator's scope: organization administrators see the entries of their
 * organization, system administrators all (including failed logins of unknown login IDs).
 */
export function auditLogService({ db }: Pick<AppContext, 'db'>) {
  const repo = auditLogRepo(db);
  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: AuditLogEntry[]; total: number }> {
      assertAdministrator(p);
      const f = parseFilter(rawFilter, auditLogFilter);
      if (f.fields) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields is not supported for the audit log', [
          { path: 'fields', message: 'fields is not supported here; every entry is answered whole' },
        ]);
      }
      const { rows, total } = await repo.page(p.type === OperatorType.systemAdmin ? null : p.organizationId, f);
      const items = (await withTargetNames(db, rows)).map((r) => ({
        id: r.id,
        at: r.at,
        operatorId: r.operator_id,
        operatorName: r.last_name === null || r.first_name === null ? null : `${r.last_name} ${r.first_name}`,
        organizationId: r.organization_id,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        targetName: r.target_name,
        ip: r.ip,
        detail: parseDetail(r.detail),
      }));
      return { items, total };
    },
  };
}
