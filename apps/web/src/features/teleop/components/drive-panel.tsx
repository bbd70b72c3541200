import { Button, Group, Stack, Switch, Text } from '@mantine/core';
import type { DriveSpeed } from '@portal/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeleopSession } from '../lib/teleop-session';
import { Joystick } from './joystick';

function useGamepadConnected(): boolean {
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const update = () =>
      setConnected(typeof navigator.getGamepads === 'function' && navigator.getGamepads().some((p) => p?.connected));
    window.addEventListener('gamepadconnected', update);
    window.addEventListener('gamepaddisconnected', update);
    return () => {
      window.removeEventListener('gamepadconnected', update);
      window.removeEventListener('gamepaddisconnected', update);
    };
  }, []);
  return connected;
}

/** The big stop button: stops at once (also for a viewer's eyes: it is disabled then). */
export function StopButton({
  session,
  enabled,
  size = 'md',
}: {
  session: TeleopSession;
  enabled: boolean;
  size?: 'md' | 'xl';
}) {
  const { t } = useTranslation();
  return (
    <Button
      color="red"
      size={size}
      fullWidth
      disabled={!enabled}
      // Pointer down: no waiting for the click.
      onPointerDown={() => session.stopNow()}
      onClick={() => session.stopNow()}
      data-testid="teleop-stop"
      style={size === 'xl' ? { height: 88, fontSize: 28 } : undefined}
    >
      {t('teleopScreen.drive.stop')}
    </Button>
  );
}

/**
 * Normal or slow speed. A switch rather than a radio group: radios take the arrow keys, which drive.
 */
export function SpeedToggle({ session, enabled }: { session: TeleopSession; enabled: boolean }) {
  const { t } = useTranslation();
  const [speed, setSpeed] = useState<DriveSpeed>(session.input.speed);
  return (
    <Switch
      label={t('teleopScreen.drive.slow')}
      checked={speed === 'slow'}
      disabled={!enabled}
      onChange={(e) => {
        const next: DriveSpeed = e.currentTarget.checked ? 'slow' : 'normal';
        session.input.setSpeed(next);
        setSpeed(next);
      }}
      data-testid="teleop-speed"
    />
  );
}

/** Joystick, stop, speed, and how to drive with keys and a game controller. */
export function DrivePanel({ session, enabled }: { session: TeleopSession; enabled: boolean }) {
  const { t } = useTranslation();
  const gamepad = useGamepadConnected();
  return (
    <Stack gap="sm" align="stretch">
      {!enabled && (
        <Text size="sm" c="dimmed">
          {t('teleopScreen.drive.viewerHint')}
        </Text>
      )}
      <Group justify="center">
        <Joystick input={session.input} disabled={!enabled} />
      </Group>
      <StopButton session={session} enabled={enabled} />
      <SpeedToggle session={session} enabled={enabled} />
      <Text size="xs" c="dimmed">
        {t('teleopScreen.drive.keys')}
      </Text>
      {gamepad && (
        <Text size="xs" c="teal" data-testid="teleop-gamepad">
          {t('teleopScreen.drive.gamepad')}
        </Text>
      )}
    </Stack>
  );
}
