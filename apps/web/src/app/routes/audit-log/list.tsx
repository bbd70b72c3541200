import { AuditLogTable } from '@/features/audit-log/components/audit-log-table';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  return <RequirePeopleAdmin>{() => <AuditLogTable />}</RequirePeopleAdmin>;
}
