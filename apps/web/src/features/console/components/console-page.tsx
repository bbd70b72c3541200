import { Alert, Anchor, Grid, Group, Stack, Text } from '@mantine/core';
import type { Robot } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useErrorText } from '@/lib/i18n';
import { useConsoleLog } from '../api/get-console-log';
import { useRobotBySerial } from '../api/get-robot-by-serial';
import { useRobotConsole } from '../api/get-robot-console';
import { osUpdateRunning, useOsUpdateProgress } from '../os-update-progress';
import { ActionPanel } from './action-panel';
import { ConsoleHeader } from './console-header';
import { MessageLog } from './message-log';
import { OsUpdatePanel } from './os-update-panel';
import { FactsheetPanel, StatePanel } from './robot-json-panels';

/** /console/:serialNo (administrators): the robot as it reports itself, its messages and its instant actions. */
export function ConsolePage({ serialNo }: { serialNo: string }) {
  const { t } = useTranslation();
  const robot = useRobotBySerial(serialNo);
  if (robot.isPending) return <PageLoader />;
  if (robot.isError) {
    if (isApiError(robot.error) && robot.error.code === 'NOT_FOUND')
      return (
        <Alert color="red" role="alert" title={t('consoleScreen.title')} data-testid="console-not-found">
          <Stack gap="xs">
            <Text size="sm">{t('consoleScreen.notFound', { serialNo })}</Text>
            <Anchor component={Link} to={paths.robot.list.getHref()} size="sm">
              {t('consoleScreen.toRobotList')}
            </Anchor>
          </Stack>
        </Alert>
      );
    return <QueryError error={robot.error} onRetry={() => void robot.refetch()} />;
  }
  return <RobotConsoleView robot={robot.data} />;
}

function RobotConsoleView({ robot }: { robot: Robot }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const consoleQuery = useRobotConsole(robot.id);
  const log = useConsoleLog(robot.id);
  // What the robot did happened in its building: the console's times are in the building's zone.
  const timeZone = useBuildingTimeZone(robot.buildingId);
  const c = consoleQuery.data ?? null;
  const os = useOsUpdateProgress(
    c ? { online: c.online, updating: c.info.updating, osVersion: c.info.osVersion } : null,
  );
  const updating = osUpdateRunning(os.progress.phase) || (c?.info.updating ?? false);

  return (
    <Stack data-testid="console-page">
      <Group gap="lg">
        <Anchor component={Link} to={paths.robot.detail.getHref(robot.id)} size="sm" data-testid="console-robot-link">
          ← {t('consoleScreen.links.robot')}
        </Anchor>
        <Anchor
          component={Link}
          to={paths.app.teleOpe.getHref(robot.serialNo)}
          size="sm"
          data-testid="console-teleop-link"
        >
          {t('consoleScreen.links.teleop')} →
        </Anchor>
      </Group>
      <ConsoleHeader robot={robot} console={c} updating={updating} />
      <TimeZoneNote timeZone={timeZone} />
      {consoleQuery.isError && c === null ? (
        // Nothing to show of the robot yet: only the retry (the log below still polls).
        <QueryError error={consoleQuery.error} onRetry={() => void consoleQuery.refetch()} />
      ) : (
        <>
          {consoleQuery.isError && (
            <Alert color="orange" p="xs" role="alert" data-testid="console-refresh-failed">
              <Text size="sm">
                {t('consoleScreen.header.refreshFailed', { reason: errorText(consoleQuery.error) })}
              </Text>
            </Alert>
          )}
          <Grid>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <StatePanel state={c?.state ?? null} loading={consoleQuery.isPending} timeZone={timeZone} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Stack>
                <ActionPanel robot={robot} online={c?.online ?? false} />
                <OsUpdatePanel
                  robot={robot}
                  console={c}
                  progress={os.progress}
                  onStarted={os.start}
                  onDismiss={os.dismiss}
                />
              </Stack>
            </Grid.Col>
          </Grid>
          <FactsheetPanel factsheet={c?.factsheet ?? null} loading={consoleQuery.isPending} />
        </>
      )}
      <MessageLog
        entries={log.data?.entries ?? []}
        missed={log.data?.missed ?? 0}
        error={log.isError ? log.error : null}
        onClear={log.clear}
        timeZone={timeZone}
      />
    </Stack>
  );
}
