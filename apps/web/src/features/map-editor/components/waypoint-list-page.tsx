import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFloor } from '../api/get-floor';
import { useWaypoints } from '../api/get-waypoints';

const deg = (rad: number) => ((rad * 180) / Math.PI).toFixed(1);

/** /waypoint/{mapId}/list: the waypoints of a floor's map, searchable, each linked to the editor. */
export function WaypointListPage({ floorId, canEdit }: { floorId: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const list = useWaypoints(floorId);
  const floor = useFloor(floorId);
  const [q, setQ] = useState('');
  if (list.isError) return <QueryError error={list.error} onRetry={() => void list.refetch()} />;
  if (list.isPending) return <PageLoader />;
  const needle = q.trim().toLowerCase();
  const rows = list.data.filter((w) => !needle || w.name.toLowerCase().includes(needle));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('waypointScreens.listTitle', { floor: floor.data?.name ?? `#${floorId}` })}
        </Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to={paths.editor.floor.getHref(floorId)}>
            {t('waypointScreens.openEditor')}
          </Button>
          {canEdit && (
            <Button component={Link} to={paths.waypoint.create.getHref(floorId)}>
              {t('waypointScreens.create')}
            </Button>
          )}
        </Group>
      </Group>
      <TextInput
        placeholder={t('waypointScreens.search')}
        aria-label={t('waypointScreens.search')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        maw={360}
      />
      {rows.length === 0 ? (
        <Text c="dimmed">{list.data.length === 0 ? t('waypointScreens.empty') : t('waypointScreens.noMatch')}</Text>
      ) : (
        <Table striped highlightOnHover data-testid="waypoint-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('waypointScreens.columns.name')}</Table.Th>
              <Table.Th>{t('waypointScreens.columns.type')}</Table.Th>
              <Table.Th ta="right">{t('waypointScreens.columns.x')}</Table.Th>
              <Table.Th ta="right">{t('waypointScreens.columns.y')}</Table.Th>
              <Table.Th ta="right">{t('waypointScreens.columns.direction')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.waypoint.detail.getHref(floorId, w.id)}>
                    {w.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t(`mapEditor.waypointTypes.${w.type}`)}</Table.Td>
                <Table.Td ta="right">{w.x.toFixed(2)}</Table.Td>
                <Table.Td ta="right">{w.y.toFixed(2)}</Table.Td>
                <Table.Td ta="right">{deg(w.theta)}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} size="sm" to={paths.editor.floor.getHref(floorId, w.id)}>
                    {t('waypointScreens.showOnMap')}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
