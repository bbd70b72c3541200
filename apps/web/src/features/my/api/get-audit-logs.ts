import { myOps } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export const AUDIT_LOGS_PER_PAGE = 20;

export const auditLogsQueryOptions = (page: number) => ({
  ...opQuery(myOps.listMyAuditLogs, queryKeys.my.part('me', 'audit-logs', page), {
    query: { page, perPage: AUDIT_LOGS_PER_PAGE },
  }),
  placeholderData: keepPreviousData,
});

export const useAuditLogs = (page: number) => useQuery(auditLogsQueryOptions(page));
