import { auditLogEntrySchema, type Language } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, parseWith } from '@/lib/api-client';
import { totalOf } from '@/lib/list-params';
import { auditLogFilter, type AuditLogParams } from '../list-params';

/** GET /audit-logs?filter=: newest first, one page and the X-Total-Count total. */
export async function getAuditLogs(params: AuditLogParams, lang: Language) {
  const res = await apiRequest('GET', '/audit-logs', {
    query: { filter: JSON.stringify(auditLogFilter(params, lang)) },
  });
  const items = parseWith(z.array(auditLogEntrySchema), res.data);
  return { items, total: totalOf(res.headers, items.length) };
}

export const auditLogsQueryOptions = (params: AuditLogParams, lang: Language) =>
  queryOptions({
    queryKey: ['audit-logs', params, lang],
    queryFn: () => getAuditLogs(params, lang),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (params: AuditLogParams, lang: Language) => useQuery(auditLogsQueryOptions(params, lang));
