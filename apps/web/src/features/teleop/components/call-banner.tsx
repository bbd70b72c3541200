import { Alert, Button, Group, Text } from '@mantine/core';
import type { CallState } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import type { useRobotActions } from '../hooks/use-robot-action';

/**
 * Call-in customer service: someone at the robot pressed its call button. Ringing: answer or
 * decline; in conversation: hang up; idle: nothing.
 */
export function CallBanner({
  call,
  actions,
  enabled,
}: {
  call: CallState;
  actions: ReturnType<typeof useRobotActions>;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  if (call === 'idle') return null;
  const ringing = call === 'calling';
  return (
    <Alert
      color={ringing ? 'grape' : 'teal'}
      variant={ringing ? 'filled' : 'light'}
      role={ringing ? 'alert' : 'status'}
      data-testid="teleop-call"
      data-call={call}
      p="xs"
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={700} size="sm">
          {ringing ? t('teleopScreen.call.calling') : t('teleopScreen.call.conversation')}
        </Text>
        <Group gap="xs">
          {ringing && (
            <Button
              size="xs"
              color="green"
              variant="white"
              disabled={!enabled}
              loading={actions.pending === 'answerCall'}
              onClick={() => void actions.run({ type: 'answerCall' })}
              data-testid="teleop-call-answer"
            >
              {t('teleopScreen.call.answer')}
            </Button>
          )}
          <Button
            size="xs"
            color="red"
            variant={ringing ? 'white' : 'filled'}
            disabled={!enabled}
            loading={actions.pending === 'endCall'}
            onClick={() => void actions.run({ type: 'endCall' })}
            data-testid="teleop-call-end"
          >
            {ringing ? t('teleopScreen.call.decline') : t('teleopScreen.call.hangUp')}
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
