import type { Filter, Language, Where } from '@portal/contract';
import { z } from 'zod';
import { listParam, readListParams, whereOf } from '@/lib/list-params';

export const AUDIT_LOG_PER_PAGE = 50;

/** `?page=&operator=&targetType=&targetId=&from=YYYY-MM-DD&to=YYYY-MM-DD` */
export const auditLogSchema = z.object({
  page: listParam.page(),
  operator: listParam.id(),
  targetType: listParam.text(),
  targetId: listParam.text(),
  from: listParam.day(),
  to: listParam.day(),
});
export type AuditLogParams = z.output<typeof auditLogSchema>;

/** The log's state read from search parameters. */
export const parseAuditLogParams = (search: URLSearchParams): AuditLogParams => readListParams(auditLogSchema, search);

/** Days are the operator's: Tokyo for Japanese screens, the browser's zone otherwise (lib/format). */
export function dayBoundary(day: string, end: boolean, lang: Language): string {
  const time = end ? 'T23:59:59.999' : 'T00:00:00.000';
  if (lang === 'ja') return `${day}${time}+09:00`;
  return new Date(`${day}${time}`).toISOString();
}

export function auditLogFilter(p: AuditLogParams, lang: Language): Filter {
  const and: Where[] = [];
  if (p.operator !== null) and.push({ operatorId: p.operator });
  if (p.targetType) and.push({ targetType: p.targetType });
  if (p.targetId) and.push({ targetId: p.targetId });
  if (p.from) and.push({ at: { gte: dayBoundary(p.from, false, lang) } });
  if (p.to) and.push({ at: { lte: dayBoundary(p.to, true, lang) } });
  return {
    ...whereOf(and),
    order: 'at DESC',
    limit: AUDIT_LOG_PER_PAGE,
    skip: (p.page - 1) * AUDIT_LOG_PER_PAGE,
  };
}
