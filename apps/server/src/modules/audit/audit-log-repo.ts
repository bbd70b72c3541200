import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';

/** SQL of the audit log: one page of a filter with its operators' names, and the filter's total. */
export function auditLogRepo(db: Kysely<Database>) {
  return {
    /** `organizationId` null: every entry (system administrators). */
    async page(organizationId: number | null, f: ParsedFilter) {
      const scoped = db
        .selectFrom('audit_logs')
        .leftJoin('operators', 'operators.id', 'audit_logs.operator_id')
        .$if(organizationId !== null, (q) => q.where('audit_logs.organization_id', '=', organizationId!));
      const [rows, count] = await Promise.all([
        applyFilter(
          scoped.select([
            'audit_logs.id',
            'audit_logs.at',
            'audit_logs.operator_id',
            'operators.last_name',
            'operators.first_name',
            'audit_logs.organization_id',
            'audit_logs.action',
            'audit_logs.target_type',
            'audit_logs.target_id',
            'audit_logs.target_name',
            'audit_logs.ip',
            'audit_logs.detail',
          ]),
          f,
        ).execute(),
        applyWhere(scoped, f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
