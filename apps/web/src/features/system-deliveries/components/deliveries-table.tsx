import { Spoiler, Stack, Text, Title } from '@mantine/core';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { ListTable, type Column } from '@/components/list-page';
import { useFormat } from '@/lib/format';
import { listParam, useListParams } from '@/lib/list-params';
import { DELIVERIES_PER_PAGE, useDeliveries } from '../api/get-deliveries';

const statusColor = { stored: 'dimmed', sent: 'teal', failed: 'red' } as const;

/** The list's state as it stands in the URL: `?page=2`. */
const deliveryListSchema = z.object({ page: listParam.page() });

type DeliveryRow = NonNullable<ReturnType<typeof useDeliveries>['data']>['items'][number];

export function DeliveriesTable() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(deliveryListSchema);
  const deliveries = useDeliveries(params.page);
  const columns: Column<DeliveryRow>[] = [
    { id: 'createdAt', header: t('deliveries.createdAt'), cell: ({ row }) => format.dateTime(row.original.createdAt) },
    {
      id: 'channel',
      header: t('deliveries.channel'),
      cell: ({ row }) => t(`deliveries.channels.${row.original.channel}`),
    },
    { id: 'recipient', header: t('deliveries.recipient'), cell: ({ row }) => row.original.recipient },
    {
      id: 'subject',
      header: t('deliveries.subject'),
      cell: ({ row: { original: d } }) => (
        <>
          <Text size="sm" fw={600}>
            {d.subject}
          </Text>
          <Spoiler maxHeight={0} showLabel="…" hideLabel="▲">
            <Text size="xs" style={{ whiteSpace: 'pre-wrap' }}>
              {d.body}
            </Text>
          </Spoiler>
        </>
      ),
    },
    {
      id: 'purpose',
      header: t('deliveries.purpose'),
      // A purpose this version has no words for (a newer server) is shown as its code.
      cell: ({ row: { original: d } }) =>
        i18n.exists(`deliveries.purposes.${d.purpose}`)
          ? t(`deliveries.purposes.${d.purpose}` as 'deliveries.purposes.auth-code')
          : d.purpose,
    },
    {
      id: 'status',
      header: t('deliveries.status'),
      cell: ({ row: { original: d } }) => (
        // Plain words (a badge cut them short); a failure says why.
        <Stack gap={0} data-testid={`delivery-status-${d.id}`}>
          <Text size="sm" fw={600} c={statusColor[d.status]} style={{ whiteSpace: 'nowrap' }}>
            {t(`deliveries.statuses.${d.status}`)}
          </Text>
          {d.error && (
            <Text size="xs" c="dimmed">
              {d.error}
            </Text>
          )}
        </Stack>
      ),
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('deliveries.title')}
      </Title>
      <ListTable
        query={deliveries}
        empty={t('common.empty')}
        columns={columns}
        rowId={(d) => d.id}
        paging={{ page: params.page, perPage: DELIVERIES_PER_PAGE, onPage: (page) => setParams({ page }) }}
        minWidth={800}
      />
    </Stack>
  );
}
