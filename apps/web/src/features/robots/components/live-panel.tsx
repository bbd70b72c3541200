import { Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { robotTopic, type RobotLive } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BatteryIndicator, IssueList, LastOrderResult, RelativeTime, StatusBadge } from '@/components/robot-status';
import { useFleet } from '@/lib/realtime';
import { CommandButtons } from './command-menu';
import { useFloorNames } from './use-floor-names';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

const rad2deg = (r: number) => Math.round(((r * 180) / Math.PI + 360) % 360);

export function LiveState({
  live,
  floorName,
  buildingId,
}: {
  live: RobotLive;
  floorName: string | null;
  /** The robot's building: times are in its zone. */
  buildingId?: number;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" data-testid="robot-live">
      <Item label={t('robotCommon.status')}>
        <StatusBadge label={live.statusLabel} notReporting={live.notReporting} />
      </Item>
      <Item label={t('robotCommon.battery')}>
        <BatteryIndicator battery={live.battery} state={live.batteryState} />
      </Item>
      <Item label={t('robotCommon.activity')}>
        <Text size="sm" data-testid="robot-activity">
          {live.activity ? t(`robotCommon.activities.${live.activity}`) : t('robotCommon.unknownValue')}
        </Text>
      </Item>
      <Item label={t('robotCommon.floor')}>
        <Text size="sm">{floorName ?? t('robotCommon.unknownValue')}</Text>
      </Item>
      <Item label={t('robotCommon.position')}>
        <Text size="sm" data-testid="robot-position">
          {live.position
            ? t('robotCommon.positionValue', {
                x: live.position.x.toFixed(2),
                y: live.position.y.toFixed(2),
                deg: rad2deg(live.position.theta),
              })
            : t('robotCommon.unknownValue')}
        </Text>
      </Item>
      <Item label={t('robotCommon.lastCommunication')}>
        <Text size="sm">
          <RelativeTime value={live.lastCommunicationAt} buildingId={buildingId} />
        </Text>
      </Item>
      <Item label={t('robotCommon.issues')}>
        <IssueList issues={live.issues} />
      </Item>
      {live.lastOrder && (
        <Item label={t('robotCommon.lastOrder.title')}>
          <LastOrderResult order={live.lastOrder} />
        </Item>
      )}
    </SimpleGrid>
  );
}

/** The robot's live state (topic `robot:{id}`) and its commands. */
export function LivePanel({ robot }: { robot: { id: number; name: string; buildingId: number } }) {
  const { t } = useTranslation();
  const fleet = useFleet(robotTopic(robot.id));
  const floorNames = useFloorNames([robot.buildingId]);
  const live = fleet.robots.get(robot.id)?.live ?? null;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('robotRegistry.tabs.live')}
          </Title>
          <CommandButtons robot={robot} />
        </Group>
        {live ? (
          <LiveState
            live={live}
            buildingId={robot.buildingId}
            floorName={live.floorId === null ? null : (floorNames.get(live.floorId) ?? null)}
          />
        ) : (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label={t('app.loading')} />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
