import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { Webhook } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useWebhooks } from '../api/get-webhooks';
import { TestWebhookButton } from './test-webhook-button';
import { LastDelivery, WebhookStatusBadge } from './webhook-words';

/** /system/webhooks/list: every webhook with its address (masked), status and last delivery. */
export function WebhookList() {
  const { t } = useTranslation();
  const webhooks = useWebhooks();

  const columns: Column<Webhook>[] = [
    {
      id: 'name',
      header: t('webhooks.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: w } }) => (
        <Anchor component={Link} to={paths.system.webhookDetail.getHref(w.id)}>
          {w.name}
        </Anchor>
      ),
    },
    { id: 'type', header: t('webhooks.columns.type'), cell: ({ row }) => t(`webhooks.types.${row.original.type}`) },
    {
      id: 'host',
      header: t('webhooks.columns.host'),
      cell: ({ row: { original: w } }) => (
        <div>
          <Text size="sm">{w.urlHost}</Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {w.url}
          </Text>
        </div>
      ),
    },
    {
      id: 'status',
      header: t('webhooks.columns.status'),
      cell: ({ row }) => <WebhookStatusBadge webhook={row.original} />,
    },
    {
      id: 'lastDelivery',
      header: t('webhooks.columns.lastDelivery'),
      cell: ({ row }) => <LastDelivery webhook={row.original} />,
    },
    {
      id: 'actions',
      header: t('webhooks.columns.actions'),
      cell: ({ row: { original: w } }) => (
        <Group gap="xs" wrap="nowrap">
          <Button component={Link} to={paths.system.webhookDetail.getHref(w.id)} size="xs" variant="default">
            {t('webhooks.edit')}
          </Button>
          <TestWebhookButton webhook={w} />
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <PageHeader
        title={t('webhooks.title')}
        create={{ to: paths.system.webhookCreate.getHref(), label: t('webhooks.add'), testId: 'webhook-create' }}
      />
      <Text size="sm" c="dimmed">
        {t('webhooks.intro')}
      </Text>
      <ListTable
        query={webhooks}
        empty={t('webhooks.empty')}
        emptyHint={t('webhooks.emptyHint')}
        columns={columns}
        rowId={(w) => w.id}
        minWidth={900}
        data-testid="webhook-table"
      />
    </Stack>
  );
}
