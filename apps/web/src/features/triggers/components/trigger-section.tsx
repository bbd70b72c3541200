import { Alert, Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { Trigger } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListTable, type Column } from '@/components/list-page';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { TRIGGERS_PER_PAGE, useDeleteTrigger, useTriggers } from '../api';
import { TriggerForm } from './trigger-form';

interface TriggerSectionProps {
  buildingId: number;
  organizationId: number;
  canManage: boolean;
  systemAdmin: boolean;
}

/**
 * The triggers of a building (a section of the building screen): the list on the list-page kit, a
 * trigger created or edited in a dialog on the form kit, deleted after a confirmation.
 */
export function TriggerSection({ buildingId, organizationId, canManage, systemAdmin }: TriggerSectionProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const [page, setPage] = useState(1);
  const list = useTriggers(buildingId, page);
  const remove = useDeleteTrigger();
  const [editing, setEditing] = useState<Trigger | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Trigger | null>(null);

  const columns: Column<Trigger>[] = [
    {
      id: 'name',
      header: t('buildings.triggers.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: r } }) => r.name,
    },
    {
      id: 'status',
      header: t('buildings.triggers.columns.status'),
      cell: ({ row: { original: r } }) => (
        <Badge
          color={r.status === 1 ? 'green' : 'gray'}
          variant="light"
          styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
        >
          {t(r.status === 1 ? 'buildings.triggers.statuses.1' : 'buildings.triggers.statuses.0')}
        </Badge>
      ),
    },
    {
      id: 'event',
      header: t('buildings.triggers.columns.event'),
      cell: ({ row: { original: r } }) => (
        <Text size="sm">
          {t(`buildings.triggers.eventTypes.${r.eventType}` as 'buildings.triggers.eventTypes.1')}
          {r.eventType === 1 &&
            `: ${r.conditions.robotStatuses.map((s) => t(`buildings.triggers.robotStatuses.${s}`)).join(', ')}`}
        </Text>
      ),
    },
    {
      id: 'target',
      header: t('buildings.triggers.columns.target'),
      cell: ({ row: { original: r } }) =>
        t(`buildings.triggers.targetTypes.${r.targetType}` as 'buildings.triggers.targetTypes.0'),
    },
    {
      id: 'updatedAt',
      header: t('buildings.triggers.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
    {
      id: 'actions',
      header: '',
      cell: ({ row: { original: r } }) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setEditing(r)} data-testid={`trigger-edit-${r.id}`}>
            {canManage ? t('buildingCommon.edit') : t('buildings.triggers.view')}
          </Button>
          {canManage && (
            <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(r)}>
              {t('buildingCommon.delete')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('buildings.triggers.title')}
        </Title>
        {canManage && (
          <Button onClick={() => setEditing('new')} data-testid="trigger-create">
            {t('buildings.triggers.create')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('buildings.triggers.intro')}
      </Text>
      {remove.isError && (
        <Alert color="red" role="alert">
          {errorText(remove.error)}
        </Alert>
      )}
      <ListTable
        query={list}
        empty={t('buildings.triggers.empty')}
        emptyTestId="trigger-list-empty"
        count={(count) => t('buildings.triggers.total', { count })}
        columns={columns}
        rowId={(item) => item.id}
        rowProps={(item) => ({ 'data-testid': `trigger-row-${item.id}` })}
        paging={{ page, perPage: TRIGGERS_PER_PAGE, onPage: setPage }}
        minWidth={760}
        highlightOnHover
        data-testid="trigger-table"
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('buildings.triggers.create') : editing?.name}
        size="xl"
      >
        {editing !== null && (
          <TriggerForm
            buildingId={buildingId}
            organizationId={organizationId}
            systemAdmin={systemAdmin}
            trigger={editing === 'new' ? undefined : editing}
            onDone={() => setEditing(null)}
            readOnly={!canManage}
          />
        )}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('buildings.triggers.deleteTitle')}
        confirmLabel={t('buildingCommon.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
        }}
      >
        {t('buildings.triggers.deleteConfirm', { name: deleting?.name ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}
