import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { floorLabel } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useBuildingFloors } from '../api/get-building-floors';

/** A building's floors, top floor first, labelled 1F / B1 (spec section 5). */
export function FloorTable({ buildingId, canManage }: { buildingId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const floors = useBuildingFloors(buildingId);
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
      {floors.isPending ? (
        <PageLoader />
      ) : floors.isError ? (
        <QueryError error={floors.error} onRetry={() => void floors.refetch()} />
      ) : floors.data.length === 0 ? (
        <Text c="dimmed">{t('floors.empty')}</Text>
      ) : (
        <Table withTableBorder striped verticalSpacing="xs" data-testid="floor-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={90}>{t('floors.columns.number')}</Table.Th>
              <Table.Th>{t('floors.columns.name')}</Table.Th>
              <Table.Th>{t('floors.columns.type')}</Table.Th>
              <Table.Th>{t('floors.columns.map')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...floors.data]
              .sort((a, b) => (b.index ?? 0) - (a.index ?? 0))
              .map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td fw={700}>{f.index !== undefined ? floorLabel(f.index) : ''}</Table.Td>
                  <Table.Td>
                    {f.id !== undefined ? (
                      <Anchor component={Link} to={paths.building.floor.getHref(f.id)}>
                        {f.name}
                      </Anchor>
                    ) : (
                      f.name
                    )}
                  </Table.Td>
                  <Table.Td>{f.type ? t(`floors.types.${f.type}`) : ''}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={f.img ? 'green' : 'gray'}>
                      {f.img ? t('floors.hasMap') : t('floors.noMap')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
