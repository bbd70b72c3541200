import { Anchor, Badge, Button, Group, Stack, Title } from '@mantine/core';
import { floorLabel } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable, type Column } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useBuildingFloors } from '../api/get-building-floors';

type FloorRow = NonNullable<ReturnType<typeof useBuildingFloors>['data']>[number];

/** A building's floors, top floor first, labelled 1F / B1 (spec section 5). */
export function FloorTable({ buildingId, canManage }: { buildingId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const floors = useBuildingFloors(buildingId);
  const columns: Column<FloorRow>[] = [
    {
      id: 'number',
      header: t('floors.columns.number'),
      meta: { headerProps: { w: 90 }, cellProps: { fw: 700 } },
      cell: ({ row: { original: f } }) => (f.index !== undefined ? floorLabel(f.index) : ''),
    },
    {
      id: 'name',
      header: t('floors.columns.name'),
      cell: ({ row: { original: f } }) =>
        f.id !== undefined ? (
          <Anchor component={Link} to={paths.building.floor.getHref(f.id)}>
            {f.name}
          </Anchor>
        ) : (
          f.name
        ),
    },
    {
      id: 'type',
      header: t('floors.columns.type'),
      cell: ({ row: { original: f } }) => (f.type ? t(`floors.types.${f.type}`) : ''),
    },
    {
      id: 'map',
      header: t('floors.columns.map'),
      cell: ({ row: { original: f } }) => (
        <Badge variant="light" color={f.img ? 'green' : 'gray'}>
          {f.img ? t('floors.hasMap') : t('floors.noMap')}
        </Badge>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('floors.title')}
        </Title>
        {canManage && (
          <Button component={Link} to={paths.building.floorCreate.getHref(buildingId)} data-testid="floor-add">
            {t('floors.add')}
          </Button>
        )}
      </Group>
      <ListTable
        query={floors}
        empty={t('floors.empty')}
        rows={(items) => [...items].sort((a, b) => (b.index ?? 0) - (a.index ?? 0))}
        columns={columns}
        rowId={(f) => f.id ?? `${f.index}`}
        data-testid="floor-table"
      />
    </Stack>
  );
}
