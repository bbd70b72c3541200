import { AuditLogList } from '@/features/my/components/audit-log-list';
import { usePageParam } from '@/lib/use-page-param';

export function Component() {
  return <AuditLogList page={usePageParam()} />;
}
