import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RobotTeleop } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSpeechTexts } from '../api/get-speech-texts';
import { useDriveKeys } from '../hooks/use-drive-keys';
import { useOperator } from '../hooks/use-operator';
import { usePushToTalk } from '../hooks/use-push-to-talk';
import { useRobotActions } from '../hooks/use-robot-action';
import type { UseTeleopSessionOptions } from '../hooks/use-teleop-session';
import { CallBanner } from './call-banner';
import { ControlsLock } from './controls-lock';
import { SpeedToggle, StopButton } from './drive-panel';
import { Joystick } from './joystick';
import { MappedCommands } from './mapped-commands';
import { RobotOverlay, VideoTopRow } from './link-overlay';
import { RobotAlerts } from './robot-alerts';
import { SessionPlaceholder } from './session-placeholder';
import { PhraseButtons, TalkButton } from './speech-panel';
import { StateBadge } from './state-badge';
import classes from './teleop.module.css';
import { TABLET_LANDSCAPE_QUERY } from './tablet-layout';
import { VideoStage } from './video-stage';

/**
 * /app/basic/{serialNo}: the tablet controller. Video, a large joystick, a large stop button and the
 * building's phrases; the same session as the operator screen (it asks for the controls). On a
 * tablet every control is a 44 px touch target, and in landscape the drive pad stands beside the
 * video (teleop.module.css).
 */
export function BasicController({
  teleop,
  sessionOptions,
}: {
  teleop: RobotTeleop;
  sessionOptions?: UseTeleopSessionOptions;
}) {
  const { t } = useTranslation();
  const op = useOperator(teleop, 'control', sessionOptions);
  const { session, snap, info, live, online, canDrive, canAct } = op;
  const actions = useRobotActions(teleop.robotId);
  const ptt = usePushToTalk(session, canDrive);
  useDriveKeys(session, {
    driving: canDrive,
    onTalk: teleop.capabilities.speech ? (on) => (on ? void ptt.start() : ptt.stop()) : undefined,
  });
  const phrases = useSpeechTexts(teleop.buildingId).data ?? [];
  // In landscape the video is narrow beside the drive pad: the alerts stand above it, not over it.
  const alertsAbove = useMediaQuery(TABLET_LANDSCAPE_QUERY) ?? false;
  const alerts = (
    <RobotAlerts
      robotId={teleop.robotId}
      live={live}
      info={info}
      online={online}
      peerStatus={snap.peerStatus}
      controlChannel={snap.role === 'controller' ? snap.controlChannel : null}
      controlling={online && snap.role === 'controller'}
    />
  );

  return (
    <Stack gap="sm" className={classes.touch} data-testid="teleop-basic">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="nowrap">
          <Anchor
            component={Link}
            to={paths.robot.detail.getHref(teleop.robotId)}
            className={classes.link}
            aria-label={t('teleopScreen.back')}
          >
            ←
          </Anchor>
          <div>
            <Title order={1} size="h4" data-testid="teleop-title">
              {teleop.name}
            </Title>
            <Text size="xs" c="dimmed">
              {teleop.serialNo} · {t('teleopScreen.basicTitle')}
            </Text>
          </div>
          <StateBadge state={op.badge} size="xl" />
        </Group>
        <Group gap="xs">
          <ControlsLock op={op} compact />
          <Anchor
            component={Link}
            to={paths.app.teleOpe.getHref(teleop.serialNo, 'drive')}
            size="sm"
            className={classes.link}
            data-testid="teleop-full-link"
          >
            {t('teleopScreen.fullScreen')}
          </Anchor>
        </Group>
      </Group>
      {teleop.capabilities.callService && <CallBanner call={info.call} actions={actions} enabled={online} />}
      <div className={classes.basicBody}>
        <Stack gap="xs" className={classes.basicVideoCell}>
          {/* A box of its own: the alerts' order and flex are for the row over the video. */}
          {alertsAbove && <div>{alerts}</div>}
          <VideoStage
            videoStream={snap.videoStream}
            audioStream={snap.audioStream}
            className={classes.basicVideo}
            placeholder={snap.phase === 'connected' ? undefined : <SessionPlaceholder snap={snap} session={session} />}
          >
            <VideoTopRow>
              <RobotOverlay live={live} info={info} />
              {!alertsAbove && alerts}
            </VideoTopRow>
          </VideoStage>
        </Stack>
        <div className={classes.basicControls}>
          <Paper withBorder p="md" className={classes.basicDrive} data-testid="teleop-drive">
            <Stack align="center" gap="md">
              <Joystick input={session.input} disabled={!canDrive} size={220} />
              <StopButton session={session} enabled={canDrive} size="xl" />
              <SpeedToggle session={session} enabled={canDrive} />
            </Stack>
          </Paper>
          {teleop.capabilities.speech && (
            <Paper withBorder p="md" className={classes.basicSpeech}>
              <Stack gap="md">
                <TalkButton ptt={ptt} enabled={canDrive} size="lg" />
                <Text fw={600} size="sm">
                  {t('teleopScreen.basic.phrases')}
                </Text>
                <PhraseButtons phrases={phrases} actions={actions} enabled={canAct} size="lg" />
              </Stack>
            </Paper>
          )}
          <MappedCommands robotId={teleop.robotId} actions={actions} enabled={canAct} size="lg" />
        </div>
      </div>
    </Stack>
  );
}
