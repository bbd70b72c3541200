import { auditLogSchema, paged } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const AUDIT_LOGS_PER_PAGE = 20;
const auditLogPageSchema = paged(auditLogSchema);

export const getAuditLogs = (page: number) =>
  api.get('/my/audit-logs', auditLogPageSchema, { query: { page, perPage: AUDIT_LOGS_PER_PAGE } });

export const auditLogsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['my', 'audit-logs', page],
    queryFn: () => getAuditLogs(page),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (page: number) => useQuery(auditLogsQueryOptions(page));
