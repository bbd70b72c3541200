import { Alert, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { floorLabel } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFloors } from '../api/get-floors';

interface RobotControlOverviewProps {
  buildingId: number | null;
  buildingName: string | null;
}

/** Landing page for now: the current building and its floors; the live robot list comes with the robot link. */
export function RobotControlOverview({ buildingId, buildingName }: RobotControlOverviewProps) {
  const { t } = useTranslation();
  const floors = useFloors(buildingId);
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('robotControl.title')}
      </Title>
      {buildingId === null ? (
        <Alert color="yellow">{t('robotControl.noBuilding')}</Alert>
      ) : (
        <Paper withBorder p="md">
          <Text fw={600} data-testid="current-building-name">
            {t('robotControl.building', { name: buildingName ?? '' })}
          </Text>
          <Title order={2} size="h5" mt="sm" mb="xs">
            {t('robotControl.floors')}
          </Title>
          {floors.isPending ? (
            <PageLoader />
          ) : floors.isError ? (
            <QueryError error={floors.error} onRetry={() => void floors.refetch()} />
          ) : floors.data.length === 0 ? (
            <Text c="dimmed">{t('robotControl.noFloors')}</Text>
          ) : (
            <Group gap="xs" data-testid="floor-list" role="list">
              {floors.data.map((f) => (
                <Badge key={f.id} variant="light" size="lg" role="listitem">
                  {/* The 1F/B1 label, then the name when it says more than the label does. */}
                  {[typeof f.index === 'number' ? floorLabel(f.index) : null, f.name]
                    .filter((part, i, parts) => part && (i === 0 || part !== parts[0]))
                    .join(' ')}
                </Badge>
              ))}
            </Group>
          )}
        </Paper>
      )}
      <Paper withBorder p="xl">
        <Text c="dimmed" ta="center" data-testid="robots-empty">
          {t('robotControl.empty')}
        </Text>
      </Paper>
    </Stack>
  );
}
