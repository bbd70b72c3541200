import { Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { CONSOLE_ACTIONS, type ConsoleAction } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useSendConsoleAction } from '../api/send-console-action';
import { PanelTitle } from '@/components/panel-title';

const colors: Partial<Record<ConsoleAction, string>> = { cancelOrder: 'red', startPause: 'orange' };

interface ActionPanelProps {
  robot: { id: number; name: string };
  /** False while the robot is offline (the server would answer ROBOT_OFFLINE). */
  online: boolean;
}

/** The standard VDA 5050 instant actions, one button each, with the outcome as a notification. */
export function ActionPanel({ robot, online }: ActionPanelProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const send = useSendConsoleAction();
  const pending = send.isPending ? send.variables.action : null;

  const run = (action: ConsoleAction) => {
    const label = t(`consoleScreen.actions.labels.${action}`);
    send.mutate(
      { robotId: robot.id, action },
      {
        onSuccess: () =>
          showNotification({
            color: 'green',
            message: t('consoleScreen.actions.sent', { action: label, name: robot.name }),
          }),
        onError: (e) =>
          showNotification({
            color: 'red',
            message: t('consoleScreen.actions.failed', { action: label, reason: errorText(e) }),
          }),
      },
    );
  };

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <PanelTitle title={t('consoleScreen.actions.title')} description={t('consoleScreen.actions.description')} />
        <Group gap="xs">
          {CONSOLE_ACTIONS.map((action) => (
            <Tooltip key={action} label={t(`consoleScreen.actions.hints.${action}`)} multiline w={260} withArrow>
              <Button
                size="xs"
                variant="light"
                color={colors[action]}
                disabled={!online || (pending !== null && pending !== action)}
                loading={pending === action}
                onClick={() => run(action)}
                data-testid={`console-action-${action}`}
              >
                {t(`consoleScreen.actions.labels.${action}`)}
              </Button>
            </Tooltip>
          ))}
        </Group>
        {!online && (
          <Text size="xs" c="dimmed" data-testid="console-actions-offline">
            {t('consoleScreen.actions.offline')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
