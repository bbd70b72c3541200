import { auditOps, type Language } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opPageQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';
import { auditLogFilter, type AuditLogParams } from '../list-params';

/** GET /audit-logs?filter=: newest first, one page and the X-Total-Count total. */
export const auditLogsQueryOptions = (params: AuditLogParams, lang: Language) => ({
  ...opPageQuery(auditOps.listAuditLogs, queryKeys.auditLogs.list({ params, lang }), {
    query: { filter: auditLogFilter(params, lang) },
  }),
  placeholderData: keepPreviousData,
});

export const useAuditLogs = (params: AuditLogParams, lang: Language) => useQuery(auditLogsQueryOptions(params, lang));
