import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { NotifTarget } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useNotifTargets } from '../api/get-notif-targets';
import { useOrganizationBuildings } from '../api/get-organization-buildings';
import { TestNotifButton } from './test-notif-button';

/** Email addresses come in full; the list shows only their start (URLs arrive masked already). */
export const maskAddress = (target: Pick<NotifTarget, 'type' | 'address'>): string => {
  if (target.type !== 0) return target.address;
  const at = target.address.indexOf('@');
  if (at < 0) return target.address;
  return `${target.address.slice(0, Math.min(2, at))}•••${target.address.slice(at)}`;
};

export function NotifTargetList({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const targets = useNotifTargets(organizationId);
  const buildings = useOrganizationBuildings(organizationId);
  const buildingName = (id: number | null) =>
    id === null ? t('people.notif.allBuildings') : (buildings.data?.find((b) => b.id === id)?.name ?? `#${id}`);

  const columns: Column<NotifTarget>[] = [
    {
      id: 'type',
      header: t('people.notif.type'),
      cell: ({ row: { original: n } }) => (
        <Anchor component={Link} to={paths.organization.notifTarget.getHref(organizationId, n.id)}>
          {t(`people.notif.types.${n.type}`)}
        </Anchor>
      ),
    },
    {
      id: 'level',
      header: t('people.notif.level'),
      cell: ({ row: { original: n } }) => (
        <Badge variant="light" color={n.level === 9 ? 'red' : n.level === 5 ? 'orange' : 'blue'}>
          {t(`people.levels.${n.level}`)}
        </Badge>
      ),
    },
    { id: 'building', header: t('people.notif.building'), cell: ({ row }) => buildingName(row.original.buildingId) },
    { id: 'room', header: t('people.notif.room'), cell: ({ row }) => row.original.room },
    {
      id: 'address',
      header: t('people.notif.address'),
      cell: ({ row }) => (
        <Text size="sm" ff="monospace">
          {maskAddress(row.original)}
        </Text>
      ),
    },
    {
      id: 'actions',
      header: t('people.notif.actions'),
      cell: ({ row: { original: n } }) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            component={Link}
            to={paths.organization.notifTarget.getHref(organizationId, n.id)}
            size="xs"
            variant="default"
          >
            {t('people.edit')}
          </Button>
          <TestNotifButton organizationId={organizationId} target={n} />
        </Group>
      ),
    },
  ];

  return (
    <Stack component="section" aria-labelledby="notif-targets-title" mt="lg">
      <Group justify="space-between">
        <Title order={2} size="h3" id="notif-targets-title">
          {t('people.notif.title')}
        </Title>
        <Button
          component={Link}
          to={paths.organization.notifTargetCreate.getHref(organizationId)}
          variant="light"
          data-testid="notif-target-create"
        >
          {t('people.notif.add')}
        </Button>
      </Group>
      <ListTable
        query={targets}
        empty={t('people.notif.empty')}
        columns={columns}
        rowId={(n) => n.id}
        minWidth={820}
        data-testid="notif-target-table"
      />
    </Stack>
  );
}
