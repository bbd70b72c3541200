import { z } from 'zod';
import { auditLogEntrySchema } from '../../admin.ts';
import { defineOperations, listQuery } from '../operation.ts';

/** The audit log of an administrator's scope (newest first by default). */
export const auditOps = defineOperations('audit', {
  listAuditLogs: {
    method: 'GET',
    path: '/audit-logs',
    access: 'admin',
    query: listQuery,
    list: true,
    responses: { 200: z.array(auditLogEntrySchema) },
  },
});
