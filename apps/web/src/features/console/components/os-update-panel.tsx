import { Alert, Button, Group, Loader, Modal, Paper, Stack, Text } from '@mantine/core';
import { OS_UPDATE_MIN_BATTERY, type RobotConsole } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useStartOsUpdate } from '../api/start-os-update';
import { osUpdateRunning, type OsUpdateProgress } from '../os-update-progress';
import { PanelTitle } from '@/components/panel-title';

interface OsUpdatePanelProps {
  robot: { id: number; name: string };
  /** Null until the first console answer. */
  console: RobotConsole | null;
  progress: OsUpdateProgress;
  onStarted: (fromVersion: string | null) => void;
  onDismiss: () => void;
}

/** Why the update cannot start now, mirroring the server's rules (it refuses too); null when it can. */
function useBlockedReason(c: RobotConsole | null, running: boolean): string | null {
  const { t } = useTranslation();
  if (c === null) return null;
  if (running) return t('consoleScreen.osUpdate.disabledRunning');
  if (!c.online) return t('consoleScreen.osUpdate.disabledOffline');
  if (c.battery !== null && c.battery < OS_UPDATE_MIN_BATTERY)
    return t('consoleScreen.osUpdate.disabledBattery', { percent: Math.floor(c.battery), min: OS_UPDATE_MIN_BATTERY });
  return null;
}

/** The OS update (spec section 4): confirm, start, then follow the robot through its restart. */
export function OsUpdatePanel({ robot, console: c, progress, onStarted, onDismiss }: OsUpdatePanelProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const start = useStartOsUpdate();
  const [confirming, setConfirming] = useState(false);
  const running = osUpdateRunning(progress.phase) || (c?.info.updating ?? false);
  const blocked = useBlockedReason(c, running);

  const close = () => {
    setConfirming(false);
    start.reset();
  };
  const confirm = () =>
    start.mutate(robot.id, {
      onSuccess: () => {
        onStarted(c?.info.osVersion ?? null);
        setConfirming(false);
        showNotification({ color: 'green', message: t('consoleScreen.osUpdate.started', { name: robot.name }) });
      },
    });

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <PanelTitle
          title={t('consoleScreen.osUpdate.title')}
          description={t('consoleScreen.osUpdate.description', { min: OS_UPDATE_MIN_BATTERY })}
        />
        <Group>
          <Button
            color="orange"
            disabled={c === null || blocked !== null}
            onClick={() => setConfirming(true)}
            aria-describedby={blocked ? 'console-os-update-blocked' : undefined}
            data-testid="console-os-update"
          >
            {t('consoleScreen.osUpdate.button')}
          </Button>
        </Group>
        {blocked && (
          <Text size="xs" c="dimmed" id="console-os-update-blocked" data-testid="console-os-update-blocked">
            {blocked}
          </Text>
        )}
        <OsUpdateProgressView progress={progress} osVersion={c?.info.osVersion ?? null} onDismiss={onDismiss} />
      </Stack>
      <Modal
        opened={confirming}
        onClose={close}
        title={t('consoleScreen.osUpdate.confirmTitle', { name: robot.name })}
        centered
      >
        <Stack>
          <Text size="sm">{t('consoleScreen.osUpdate.confirmBody')}</Text>
          {c?.battery !== null && c?.battery !== undefined && (
            <Text size="sm" fw={600}>
              {t('consoleScreen.osUpdate.confirmBattery', { percent: Math.floor(c.battery) })}
            </Text>
          )}
          {start.isError && (
            <Alert color="red" role="alert" data-testid="console-os-update-error">
              {errorText(start.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              color="orange"
              onClick={confirm}
              loading={start.isPending}
              disabled={blocked !== null}
              data-testid="console-os-update-confirm"
            >
              {t('consoleScreen.osUpdate.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function OsUpdateProgressView({
  progress,
  osVersion,
  onDismiss,
}: {
  progress: OsUpdateProgress;
  osVersion: string | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  if (progress.phase === 'idle') return null;
  const done = progress.phase === 'done';
  let text: string;
  if (!done) text = t(`consoleScreen.osUpdate.progress.${progress.phase}`);
  else if (osVersion === null) text = t('consoleScreen.osUpdate.progress.doneUnknown');
  else if (progress.fromVersion !== null && progress.fromVersion !== osVersion)
    text = t('consoleScreen.osUpdate.progress.doneFrom', { version: osVersion, from: progress.fromVersion });
  else text = t('consoleScreen.osUpdate.progress.done', { version: osVersion });
  return (
    <Alert
      color={done ? 'green' : 'orange'}
      title={t('consoleScreen.osUpdate.progressTitle')}
      withCloseButton={done}
      closeButtonLabel={t('consoleScreen.osUpdate.dismiss')}
      onClose={onDismiss}
      data-testid="console-os-update-progress"
      data-phase={progress.phase}
    >
      <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
        {!done && <Loader size="xs" color="orange" />}
        <Text size="sm">{text}</Text>
      </Group>
    </Alert>
  );
}
