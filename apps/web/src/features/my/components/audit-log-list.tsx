import { Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { UrlPagination } from '@/components/url-pagination';
import { paths } from '@/config/paths';
import { useAuditLabel } from '@/lib/audit-labels';
import { useFormat } from '@/lib/format';
import { AUDIT_LOGS_PER_PAGE, useAuditLogs } from '../api/get-audit-logs';

export function AuditLogList({ page }: { page: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const logs = useAuditLogs(page);
  const auditLabel = useAuditLabel();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('my.auditLogs.title')}
      </Title>
      {logs.isPending ? (
        <PageLoader />
      ) : logs.isError ? (
        <QueryError error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data.items.length === 0 ? (
        <Text c="dimmed">{t('common.empty')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('my.auditLogs.at')}</Table.Th>
                  <Table.Th>{t('my.auditLogs.action')}</Table.Th>
                  <Table.Th>{t('my.auditLogs.target')}</Table.Th>
                  <Table.Th>{t('my.auditLogs.ip')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.data.items.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>{format.dateTime(l.at)}</Table.Td>
                    <Table.Td>{auditLabel('actions', l.action)}</Table.Td>
                    <Table.Td>
                      {auditLabel('targetTypes', l.targetType)}
                      {l.targetId !== null && ` #${l.targetId}`}
                    </Table.Td>
                    <Table.Td>{l.ip ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <UrlPagination
            page={page}
            total={logs.data.total}
            perPage={AUDIT_LOGS_PER_PAGE}
            hrefFor={paths.my.auditLogs.getHref}
          />
        </>
      )}
    </Stack>
  );
}
