import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useAuditLabel, useAuditTarget } from '@/lib/audit-labels';
import { useFormat } from '@/lib/format';
import { AUDIT_LOGS_PER_PAGE, useAuditLogs } from '../api/get-audit-logs';

type AuditRow = NonNullable<ReturnType<typeof useAuditLogs>['data']>['items'][number];

export function AuditLogList({ page }: { page: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const logs = useAuditLogs(page);
  const auditLabel = useAuditLabel();
  const auditTarget = useAuditTarget();
  const columns: Column<AuditRow>[] = [
    { id: 'at', header: t('my.auditLogs.at'), cell: ({ row }) => format.dateTime(row.original.at) },
    {
      id: 'action',
      header: t('my.auditLogs.action'),
      cell: ({ row }) => auditLabel('actions', row.original.action),
    },
    {
      id: 'target',
      header: t('my.auditLogs.target'),
      cell: ({ row: { original: l } }) => auditTarget(l),
    },
    { id: 'ip', header: t('my.auditLogs.ip'), cell: ({ row }) => row.original.ip ?? '' },
  ];
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('my.auditLogs.title')}
      </Title>
      <ListTable
        query={logs}
        empty={t('common.empty')}
        columns={columns}
        rowId={(l) => l.id}
        paging={{ page, perPage: AUDIT_LOGS_PER_PAGE, pageHref: paths.my.auditLogs.getHref }}
        minWidth={640}
        verticalSpacing={7}
      />
    </Stack>
  );
}
