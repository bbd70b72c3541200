import {
  Anchor,
  Badge,
  Grid,
  Group,
  NativeSelect,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  fleetTopic,
  floorDisplayName,
  needsAttention,
  ROBOT_STATUS_LABELS,
  type FleetRobot,
  type RobotStatusLabel,
} from '@portal/contract';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { isLowBattery, statusColors, StatusBadge, useIssueText } from '@/components/robot-status';
import { paths } from '@/config/paths';
import { positiveInt } from '@/lib/list-params';
import { useFleet } from '@/lib/realtime';
import { useFleetQuery } from '../api/get-fleet';
import { useFloor } from '../api/get-floor';
import { useFloors } from '@/lib/floor-options';
import { FloorMap } from './floor-map';

function StatusCounts({ robots }: { robots: readonly FleetRobot[] }) {
  const { t } = useTranslation();
  const counts = new Map<RobotStatusLabel, number>();
  for (const r of robots) counts.set(r.live.statusLabel, (counts.get(r.live.statusLabel) ?? 0) + 1);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} spacing="sm" data-testid="dashboard-counts">
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed" fw={600}>
          {t('dashboard.total')}
        </Text>
        <Text fz={28} fw={700} data-testid="count-total">
          {robots.length}
        </Text>
      </Paper>
      {ROBOT_STATUS_LABELS.map((label) => (
        <Paper
          key={label}
          withBorder
          p="sm"
          style={{ borderLeft: `4px solid var(--mantine-color-${statusColors[label]}-6)` }}
        >
          <Text size="xs" c="dimmed" fw={600}>
            {t(`robotCommon.statusLabels.${label}`)}
          </Text>
          <Text fz={28} fw={700} data-testid={`count-${label}`}>
            {counts.get(label) ?? 0}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

const severity = (r: FleetRobot) =>
  r.live.issues.some((i) => i.level === 'FATAL')
    ? 0
    : r.live.statusLabel === 'offline'
      ? 1
      : r.live.issues.length
        ? 2
        : 3;

function AttentionList({ robots }: { robots: readonly FleetRobot[] }) {
  const { t } = useTranslation();
  const issueText = useIssueText();
  const list = robots
    .filter((r) => needsAttention(r.live))
    .sort((a, b) => severity(a) - severity(b) || a.name.localeCompare(b.name));
  return (
    <Paper withBorder p="md" h="100%">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('dashboard.attention')}
          </Title>
          <Badge color={list.length ? 'red' : 'green'} variant="light">
            {list.length}
          </Badge>
        </Group>
        {list.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('dashboard.attentionEmpty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack gap={6} data-testid="attention-list" role="list">
              {list.map((r) => {
                const reasons = [
                  ...r.live.issues.map(issueText),
                  ...(r.live.statusLabel === 'offline' ? [t('dashboard.reasons.offline')] : []),
                  ...(isLowBattery(r.live.battery) && !r.live.issues.some((i) => i.code === 'lowBattery')
                    ? [t('dashboard.reasons.lowBattery', { percent: Math.round(r.live.battery ?? 0) })]
                    : []),
                ];
                return (
                  <Group
                    key={r.id}
                    justify="space-between"
                    wrap="nowrap"
                    role="listitem"
                    data-testid={`attention-${r.serialNo}`}
                  >
                    <div style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={paths.robot.detail.getHref(r.id)} fw={600} size="sm">
                        {r.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {reasons.join(' / ')}
                      </Text>
                    </div>
                    <StatusBadge label={r.live.statusLabel} size="sm" notReporting={r.live.notReporting} />
                  </Group>
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Paper>
  );
}

function FloorSection({
  robots,
  buildingId,
  buildingFilter,
}: {
  robots: readonly FleetRobot[];
  buildingId: number | null;
  buildingFilter: ReactNode;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const floors = useFloors(buildingId);
  const floorList = (floors.data ?? []).filter((f): f is typeof f & { id: number } => typeof f.id === 'number');
  const floorParam = positiveInt(search.get('floor'));
  const floorId = floorList.some((f) => f.id === floorParam) ? floorParam : (floorList[0]?.id ?? null);
  const floor = useFloor(floorId);
  const onFloor = robots.filter(
    (r) => r.buildingId === buildingId && (r.live.position?.floorId ?? r.live.floorId) === floorId,
  );

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4">
            {t('dashboard.map')}
          </Title>
          <Group align="flex-end">
            {buildingFilter}
            <NativeSelect
              label={t('dashboard.floor')}
              value={floorId === null ? '' : String(floorId)}
              disabled={floorList.length === 0}
              onChange={(e) =>
                setSearch(
                  (prev) => {
                    const out = new URLSearchParams(prev);
                    out.set('floor', e.currentTarget.value);
                    return out;
                  },
                  { replace: true },
                )
              }
              data={
                floorList.length === 0
                  ? [{ value: '', label: t('dashboard.chooseFloor') }]
                  : floorList.map((f) => ({
                      value: String(f.id),
                      label: floorDisplayName(f),
                    }))
              }
              data-testid="dashboard-floor"
            />
          </Group>
        </Group>
        {buildingId === null ? (
          <Text c="dimmed">{t('dashboard.chooseBuilding')}</Text>
        ) : floors.isPending ? (
          <PageLoader />
        ) : floors.isError ? (
          <QueryError error={floors.error} onRetry={() => void floors.refetch()} />
        ) : floorList.length === 0 ? (
          <Text c="dimmed">{t('dashboard.noFloors')}</Text>
        ) : floor.isPending ? (
          <PageLoader />
        ) : floor.isError ? (
          <QueryError error={floor.error} onRetry={() => void floor.refetch()} />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {t('dashboard.robotsOnFloor', { count: onFloor.length })}
            </Text>
            <FloorMap floor={floor.data} robots={onFloor} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

interface DashboardProps {
  /** The building of the floor map when the URL names none (the operator's current building). */
  defaultBuildingId: number | null;
  /** The building select bound to `?building=` (composed by the route). */
  buildingFilter: ReactNode;
}

/** /dashboard: counts by status, robots needing attention and a live floor map. */
export function Dashboard({ defaultBuildingId, buildingFilter }: DashboardProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const urlBuilding = positiveInt(search.get('building'));
  const buildingId = urlBuilding ?? defaultBuildingId;
  // The building select shows what the URL says: start it at the operator's current building.
  useEffect(() => {
    if (urlBuilding === null && defaultBuildingId !== null)
      setSearch(
        (prev) => {
          const out = new URLSearchParams(prev);
          out.set('building', String(defaultBuildingId));
          return out;
        },
        { replace: true },
      );
  }, [urlBuilding, defaultBuildingId, setSearch]);
  const fleet = useFleet(fleetTopic(null));
  const rest = useFleetQuery(!fleet.ready);
  const robots = useMemo(
    () => (fleet.ready ? [...fleet.robots.values()] : (rest.data ?? null)),
    [fleet.ready, fleet.robots, rest.data],
  );

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('dashboard.title')}
      </Title>
      {robots === null ? (
        rest.isError ? (
          <QueryError error={rest.error} onRetry={() => void rest.refetch()} />
        ) : (
          <PageLoader />
        )
      ) : (
        <>
          <Title order={2} size="h4">
            {t('dashboard.counts')}
          </Title>
          <StatusCounts robots={robots} />
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <AttentionList robots={robots} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <FloorSection robots={robots} buildingId={buildingId} buildingFilter={buildingFilter} />
            </Grid.Col>
          </Grid>
        </>
      )}
    </Stack>
  );
}
