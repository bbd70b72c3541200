import { Badge, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { OS_UPDATE_MIN_BATTERY, type Robot, type RobotConsole } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

interface ConsoleHeaderProps {
  robot: Robot;
  /** Null until the first console answer. */
  console: RobotConsole | null;
  /** An OS update is under way (reported by the robot or started here). */
  updating: boolean;
}

/** Name and serial, link state, protocol, battery and OS version of the robot. */
export function ConsoleHeader({ robot, console: c, updating }: ConsoleHeaderProps) {
  const { t } = useTranslation();
  const unknown = t('consoleScreen.header.unknown');
  const battery = c?.battery ?? null;
  const low = battery !== null && battery < OS_UPDATE_MIN_BATTERY;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Text size="sm" c="dimmed">
            {t('consoleScreen.title')}
          </Text>
          <Title order={1} size="h2" data-testid="console-robot-name">
            {robot.name}
          </Title>
          <Text size="sm" c="dimmed">
            {t('consoleScreen.header.serial')}:{' '}
            <Text span ff="monospace" data-testid="console-serial">
              {robot.serialNo}
            </Text>
          </Text>
        </div>
        <Group gap="xs">
          {c === null ? (
            <Loader size="xs" aria-label={t('app.loading')} />
          ) : (
            <Badge
              color={c.online ? 'green' : 'gray'}
              variant={c.online ? 'filled' : 'light'}
              data-testid="console-online"
              data-online={c.online ? 'true' : 'false'}
            >
              {c.online ? t('consoleScreen.header.online') : t('consoleScreen.header.offline')}
            </Badge>
          )}
          {updating && (
            <Badge color="orange" variant="light" data-testid="console-updating">
              {t('consoleScreen.header.updating')}
            </Badge>
          )}
        </Group>
      </Group>
      <Group gap="xl" wrap="wrap">
        <Fact label={t('consoleScreen.header.protocol')} testId="console-protocol">
          {c?.protocolVersion ? t('consoleScreen.header.protocolValue', { version: c.protocolVersion }) : unknown}
        </Fact>
        <Fact label={t('consoleScreen.header.battery')} testId="console-battery">
          {battery === null ? (
            unknown
          ) : (
            <Text span inherit c={low ? 'red' : undefined} fw={low ? 700 : undefined}>
              {t('consoleScreen.header.batteryValue', { percent: Math.floor(battery) })}
            </Text>
          )}
        </Fact>
        <Fact label={t('consoleScreen.header.osVersion')} testId="console-os-version">
          {c?.info.osVersion ?? unknown}
        </Fact>
      </Group>
    </Stack>
  );
}
