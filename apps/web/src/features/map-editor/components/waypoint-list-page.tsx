import { Anchor, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFloor } from '../api/get-floor';
import { useWaypoints } from '../api/get-waypoints';

type WaypointRow = NonNullable<ReturnType<typeof useWaypoints>['data']>[number];

const deg = (rad: number) => ((rad * 180) / Math.PI).toFixed(1);

/** /waypoint/{mapId}/list: the waypoints of a floor's map, searchable, each linked to the editor. */
export function WaypointListPage({ floorId, canEdit }: { floorId: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const list = useWaypoints(floorId);
  const floor = useFloor(floorId);
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const right = { headerProps: { ta: 'right' }, cellProps: { ta: 'right' } };
  const columns: Column<WaypointRow>[] = [
    {
      id: 'name',
      header: t('waypointScreens.columns.name'),
      cell: ({ row: { original: w } }) => (
        <Anchor component={Link} to={paths.waypoint.detail.getHref(floorId, w.id)}>
          {w.name}
        </Anchor>
      ),
    },
    {
      id: 'type',
      header: t('waypointScreens.columns.type'),
      cell: ({ row }) => t(`mapEditor.waypointTypes.${row.original.type}`),
    },
    { id: 'x', header: t('waypointScreens.columns.x'), meta: right, cell: ({ row }) => row.original.x.toFixed(2) },
    { id: 'y', header: t('waypointScreens.columns.y'), meta: right, cell: ({ row }) => row.original.y.toFixed(2) },
    {
      id: 'direction',
      header: t('waypointScreens.columns.direction'),
      meta: right,
      cell: ({ row }) => deg(row.original.theta),
    },
    {
      id: 'map',
      header: '',
      cell: ({ row }) => (
        <Anchor component={Link} size="sm" to={paths.editor.floor.getHref(floorId, row.original.id)}>
          {t('waypointScreens.showOnMap')}
        </Anchor>
      ),
    },
  ];
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
      <ListTable
        query={list}
        empty={t('waypointScreens.empty')}
        rows={(items) => items.filter((w) => !needle || w.name.toLowerCase().includes(needle))}
        noMatch={t('waypointScreens.noMatch')}
        columns={columns}
        rowId={(w) => w.id}
        withTableBorder={false}
        verticalSpacing={7}
        highlightOnHover
        data-testid="waypoint-table"
      />
    </Stack>
  );
}
