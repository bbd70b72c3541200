import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { ROBOT_COMMANDS, type RobotCommand } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useSendCommand } from '../api/send-command';

function useCommand(robot: { id: number; name: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const send = useSendCommand();
  const run = (command: RobotCommand) =>
    send.mutate(
      { id: robot.id, command },
      {
        onSuccess: () =>
          showNotification({
            color: 'green',
            message: t('robotCommon.commands.sent', {
              command: t(`robotCommon.commands.${command}`),
              name: robot.name,
            }),
          }),
        onError: (e) => showNotification({ color: 'red', message: errorText(e) }),
      },
    );
  return { run, pending: send.isPending ? send.variables.command : null };
}

/** The "⋯" menu of a robot card: pause, resume, cancel. */
export function CommandMenu({ robot }: { robot: { id: number; name: string } }) {
  const { t } = useTranslation();
  const { run } = useCommand(robot);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('robotCommon.commands.menu', { name: robot.name })}
          data-testid="robot-command-menu"
        >
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {ROBOT_COMMANDS.map((c) => (
          <Menu.Item
            key={c}
            onClick={() => run(c)}
            color={c === 'cancel' ? 'red' : undefined}
            data-testid={`robot-command-${c}`}
          >
            {t(`robotCommon.commands.${c}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The same commands as buttons (robot page). */
export function CommandButtons({ robot }: { robot: { id: number; name: string } }) {
  const { t } = useTranslation();
  const { run, pending } = useCommand(robot);
  return (
    <Group gap="xs">
      {ROBOT_COMMANDS.map((c) => (
        <Button
          key={c}
          size="xs"
          variant="light"
          color={c === 'cancel' ? 'red' : undefined}
          loading={pending === c}
          onClick={() => run(c)}
          data-testid={`robot-command-${c}`}
        >
          {t(`robotCommon.commands.${c}`)}
        </Button>
      ))}
    </Group>
  );
}
