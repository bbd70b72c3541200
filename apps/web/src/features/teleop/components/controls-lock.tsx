import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OperatorState } from '../hooks/use-operator';

/**
 * Who has the controls and what this operator can do about it: take the free controls, take over
 * (administrators), release them; the last "taken over" notice stays until dismissed.
 */
export function ControlsLock({ op, compact = false }: { op: OperatorState; compact?: boolean }) {
  const { t } = useTranslation();
  const { snap, session, admin, online } = op;
  const joined = snap.sessionId !== null;
  const controller = snap.controller;
  const mine = snap.role === 'controller';
  const someoneElse = !mine && controller !== null;
  const notice = snap.notice?.kind === 'takenOver' ? snap.notice : null;

  const text = mine
    ? t('teleopScreen.lock.you')
    : someoneElse
      ? t('teleopScreen.lock.operatedBy', { name: controller.name })
      : t('teleopScreen.lock.nobody');

  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Text
        size="sm"
        fw={600}
        c={mine ? 'teal' : someoneElse ? 'orange' : 'dimmed'}
        data-testid="teleop-controller"
        data-role={snap.role ?? 'none'}
      >
        {text}
        {!mine && !compact && joined && (
          <Text span size="xs" c="dimmed" fw={400}>
            {' '}
            · {t('teleopScreen.lock.watching')}
          </Text>
        )}
      </Text>
      {joined && online && !mine && controller === null && (
        <Button size="xs" onClick={() => session.requestControl()} data-testid="teleop-request">
          {t('teleopScreen.lock.take')}
        </Button>
      )}
      {joined && online && someoneElse && admin && (
        <Button size="xs" color="orange" onClick={() => session.takeOver()} data-testid="teleop-takeover">
          {t('teleopScreen.lock.takeOver')}
        </Button>
      )}
      {joined && mine && (
        <Button size="xs" variant="default" onClick={() => session.release()} data-testid="teleop-release">
          {t('teleopScreen.lock.release')}
        </Button>
      )}
      {notice && (
        <Alert
          color="orange"
          variant="light"
          p={6}
          withCloseButton
          closeButtonLabel={t('teleopScreen.lock.dismiss')}
          onClose={() => session.dismissNotice()}
          data-testid="teleop-taken-over"
        >
          {notice.by ? t('teleopScreen.lock.takenOver', { by: notice.by }) : t('teleopScreen.lock.takenOverUnknown')}
        </Alert>
      )}
    </Group>
  );
}
