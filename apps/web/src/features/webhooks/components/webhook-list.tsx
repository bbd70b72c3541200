import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { Webhook } from '@portal/contract';
import { useMemo } from 'react';
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

  // Kept between renders: TanStack Table renders each cell function as a component, so a new function
  // (a new columns array) would remount the cells and lose a test send's result when the list refreshes.
  const columns = useMemo<Column<Webhook>[]>(
    () => [
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
          <Group gap="xs">
            <Button component={Link} to={paths.system.webhookDetail.getHref(w.id)} size="xs" variant="default">
              {t('webhooks.edit')}
            </Button>
            <TestWebhookButton webhook={w} inline={false} />
          </Group>
        ),
      },
    ],
    [t],
  );

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
