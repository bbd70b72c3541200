import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { FleetRobot } from '@portal/contract';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BatteryIndicator, IssueList, RelativeTime, StatusBadge } from '@/components/robot-status';
import { paths } from '@/config/paths';
import { CommandMenu } from './command-menu';
import { modelLabel } from '../model-label';

interface RobotItemProps {
  robot: FleetRobot;
  floorName: string | null;
  /** More about the robot (the running flow), composed by the route. */
  extra?: ((robotId: number) => ReactNode) | undefined;
}

function Activity({ robot }: { robot: FleetRobot }) {
  const { t } = useTranslation();
  const a = robot.live.activity;
  return (
    <Text size="sm" data-testid="robot-activity">
      {a ? t(`robotCommon.activities.${a}`) : t('robotCommon.unknownValue')}
    </Text>
  );
}

/** Opens the operator screen (remote operation) of the robot. */
export function OperateLink({ robot }: { robot: FleetRobot }) {
  const { t } = useTranslation();
  return (
    <Button
      component={Link}
      to={paths.app.teleOpe.getHref(robot.serialNo, 'drive')}
      size="compact-xs"
      variant="light"
      aria-label={t('robotCommon.operate.label', { name: robot.name })}
      data-testid="robot-operate"
    >
      {t('robotCommon.operate.button')}
    </Button>
  );
}

/** One robot of the control grid; re-renders only when its robot object changes. */
export const RobotCard = memo(function RobotCard({ robot, floorName, extra }: RobotItemProps) {
  const { t } = useTranslation();
  const { live } = robot;
  return (
    <Paper withBorder p="sm" radius="md" h="100%" data-testid={`robot-card-${robot.serialNo}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Anchor component={Link} to={paths.robot.detail.getHref(robot.id)} fw={700} lineClamp={1}>
              {robot.name}
            </Anchor>
            <Text size="xs" c="dimmed" lineClamp={1}>
              {robot.serialNo} · {modelLabel(robot.model, t)}
            </Text>
          </div>
          <Group gap={4} wrap="nowrap">
            <StatusBadge label={live.statusLabel} size="sm" notReporting={live.notReporting} />
            <CommandMenu robot={robot} />
          </Group>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <BatteryIndicator battery={live.battery} state={live.batteryState} />
          <Activity robot={robot} />
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed" lineClamp={1}>
            {t('robotCommon.floor')}: {floorName ?? t('robotCommon.unknownValue')}
            {robot.groupName ? ` · ${robot.groupName}` : ''}
          </Text>
          <OperateLink robot={robot} />
        </Group>
        {extra?.(robot.id)}
        <IssueList issues={live.issues} compact />
        <Text size="xs" c="dimmed">
          {t('robotCommon.lastCommunication')}:{' '}
          <RelativeTime value={live.lastCommunicationAt} buildingId={robot.buildingId} />
        </Text>
      </Stack>
    </Paper>
  );
});

/** Columns of the control list (header and rows). */
export const listColumns =
  'minmax(150px, 2fr) 80px 130px minmax(150px, 1.4fr) minmax(80px, 1fr) 100px minmax(150px, 2fr) 110px 110px';
export const rowStyle: React.CSSProperties = {
  display: 'grid',
  gridTemplateColumns: listColumns,
  gap: 'var(--mantine-spacing-sm)',
  alignItems: 'center',
  padding: '6px var(--mantine-spacing-sm)',
  borderBottom: '1px solid var(--mantine-color-default-border)',
  minWidth: 1080,
};

/** One robot of the control list (the same test ids as the card). */
export const RobotRow = memo(function RobotRow({ robot, floorName, extra }: RobotItemProps) {
  const { t } = useTranslation();
  const { live } = robot;
  return (
    <div style={rowStyle} data-testid={`robot-card-${robot.serialNo}`} role="row">
      <div role="cell" style={{ minWidth: 0 }}>
        <Anchor component={Link} to={paths.robot.detail.getHref(robot.id)} fw={600} lineClamp={1}>
          {robot.name}
        </Anchor>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {robot.serialNo}
        </Text>
      </div>
      <div role="cell">
        <Text size="sm">{modelLabel(robot.model, t)}</Text>
      </div>
      <div role="cell">
        <StatusBadge label={live.statusLabel} size="sm" notReporting={live.notReporting} />
      </div>
      <div role="cell">
        <BatteryIndicator battery={live.battery} state={live.batteryState} />
      </div>
      <div role="cell">
        <Text size="sm" lineClamp={1}>
          {floorName ?? t('robotCommon.unknownValue')}
        </Text>
      </div>
      <div role="cell" style={{ minWidth: 0 }}>
        <Activity robot={robot} />
        {extra?.(robot.id)}
      </div>
      <div role="cell" style={{ minWidth: 0 }}>
        <IssueList issues={live.issues} compact />
      </div>
      <div role="cell">
        <Text size="sm">
          <RelativeTime value={live.lastCommunicationAt} buildingId={robot.buildingId} />
        </Text>
      </div>
      <div role="cell">
        <Group gap={4} wrap="nowrap">
          <OperateLink robot={robot} />
          <CommandMenu robot={robot} />
        </Group>
      </div>
    </div>
  );
});
