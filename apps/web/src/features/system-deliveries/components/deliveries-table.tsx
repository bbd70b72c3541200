import { Badge, Spoiler, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { UrlPagination } from '@/components/url-pagination';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { DELIVERIES_PER_PAGE, useDeliveries } from '../api/get-deliveries';

const statusColor = { stored: 'gray', sent: 'green', failed: 'red' } as const;

export function DeliveriesTable({ page }: { page: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const deliveries = useDeliveries(page);
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('deliveries.title')}
      </Title>
      {deliveries.isPending ? (
        <PageLoader />
      ) : deliveries.isError ? (
        <QueryError error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.items.length === 0 ? (
        <Text c="dimmed">{t('common.empty')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={800}>
            <Table striped withTableBorder verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('deliveries.createdAt')}</Table.Th>
                  <Table.Th>{t('deliveries.channel')}</Table.Th>
                  <Table.Th>{t('deliveries.recipient')}</Table.Th>
                  <Table.Th>{t('deliveries.subject')}</Table.Th>
                  <Table.Th>{t('deliveries.purpose')}</Table.Th>
                  <Table.Th>{t('deliveries.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.data.items.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{format.dateTime(d.createdAt)}</Table.Td>
                    <Table.Td>{d.channel}</Table.Td>
                    <Table.Td>{d.recipient}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {d.subject}
                      </Text>
                      <Spoiler maxHeight={0} showLabel="…" hideLabel="▲">
                        <Text size="xs" style={{ whiteSpace: 'pre-wrap' }}>
                          {d.body}
                        </Text>
                      </Spoiler>
                    </Table.Td>
                    <Table.Td>{d.purpose}</Table.Td>
                    <Table.Td>
                      <Badge color={statusColor[d.status]} variant="light" title={d.error ?? undefined}>
                        {t(`deliveries.statuses.${d.status}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <UrlPagination
            page={page}
            total={deliveries.data.total}
            perPage={DELIVERIES_PER_PAGE}
            hrefFor={paths.system.deliveries.getHref}
          />
        </>
      )}
    </Stack>
  );
}
