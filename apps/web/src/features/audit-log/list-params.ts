import { positiveInt } from '@/lib/list-params';
import type { Filter, Language, Where } from '@portal/contract';

export const AUDIT_LOG_PER_PAGE = 50;

/** `?page=&operator=&targetType=&targetId=&from=YYYY-MM-DD&to=YYYY-MM-DD` */
export interface AuditLogParams {
  page: number;
  operator: number | null;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseAuditLogParams(search: URLSearchParams): AuditLogParams {
  const day = (k: string) => {
    const v = search.get(k) ?? '';
    return DAY.test(v) ? v : '';
  };
  return {
    page: positiveInt(search.get('page')) ?? 1,
    operator: positiveInt(search.get('operator')),
    targetType: (search.get('targetType') ?? '').trim(),
    targetId: (search.get('targetId') ?? '').trim(),
    from: day('from'),
    to: day('to'),
  };
}

export const auditLogQuery = (p: AuditLogParams): Record<string, string | undefined> => ({
  page: p.page > 1 ? String(p.page) : undefined,
  operator: p.operator === null ? undefined : String(p.operator),
  targetType: p.targetType || undefined,
  targetId: p.targetId || undefined,
  from: p.from || undefined,
  to: p.to || undefined,
});

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
    ...(and.length > 0 ? { where: and.length === 1 ? and[0] : { and } } : {}),
    order: 'at DESC',
    limit: AUDIT_LOG_PER_PAGE,
    skip: (p.page - 1) * AUDIT_LOG_PER_PAGE,
  };
}
