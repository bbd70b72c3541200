import { Button, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTeleopErrorText } from '../hooks/use-teleop-error-text';
import type { TeleopSession, TeleopSnapshot } from '../lib/teleop-session';

/** Over the video while there is none: where the session stands, why it ended, and the way back. */
export function SessionPlaceholder({ snap, session }: { snap: TeleopSnapshot; session: TeleopSession }) {
  const { t } = useTranslation();
  const errorText = useTeleopErrorText();
  const ended = snap.phase === 'closed' || snap.phase === 'failed';
  let text: string;
  if (snap.phase === 'closed') text = t(`teleopScreen.session.closed.${snap.closedReason ?? 'left'}`);
  else if (snap.phase === 'failed')
    text = t('teleopScreen.session.failed', { reason: errorText(snap.error?.code ?? '', snap.error?.message ?? '') });
  else if (snap.phase === 'waiting') text = t('teleopScreen.session.waiting');
  else if (snap.phase === 'joining') text = t('teleopScreen.session.joining');
  else if (snap.phase === 'connecting') text = t('teleopScreen.session.connecting');
  else text = t('teleopScreen.video.waiting');

  return (
    <Stack align="center" gap="sm" p="md" data-testid="teleop-session" data-phase={snap.phase}>
      {!ended && <Loader color="gray" />}
      <Text c="gray.2" size="sm" ta="center" maw={420}>
        {text}
      </Text>
      {ended && (
        <Button size="sm" variant="white" onClick={() => session.reconnect()} data-testid="teleop-reconnect">
          {t('teleopScreen.session.reconnect')}
        </Button>
      )}
    </Stack>
  );
}
