import { Anchor, Box, Group, Paper, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RobotTeleop } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSpeechTexts } from '../api/get-speech-texts';
import { useDriveKeys } from '../hooks/use-drive-keys';
import { useLinkStats } from '../hooks/use-link-stats';
import { useOperator } from '../hooks/use-operator';
import { usePushToTalk } from '../hooks/use-push-to-talk';
import { useRobotActions } from '../hooks/use-robot-action';
import type { UseTeleopSessionOptions } from '../hooks/use-teleop-session';
import { ActionBar } from './action-bar';
import { CallBanner } from './call-banner';
import { CameraControls } from './camera-controls';
import { ControlsLock } from './controls-lock';
import { DeviceControls } from './device-controls';
import { DrivePanel } from './drive-panel';
import { QualityOverlay, RobotOverlay, VideoTopRow } from './link-overlay';
import { RobotAlerts } from './robot-alerts';
import { SessionPlaceholder } from './session-placeholder';
import { SpeechPanel } from './speech-panel';
import { StateBadge } from './state-badge';
import { ThermalPresets } from './thermal-presets';
import { VideoStage } from './video-stage';

export type TeleopMode = 'drive' | 'watch';

interface OperatorScreenProps {
  teleop: RobotTeleop;
  /** drive asks for the controls when joining; watch only watches. */
  mode: TeleopMode;
  /** Tests inject the socket and the peer. */
  sessionOptions?: UseTeleopSessionOptions;
}

/** Fills the window below the header (AppShell header 56 px and the main area's padding). */
const FULL_HEIGHT = 'calc(100dvh - 56px - 2 * var(--mantine-spacing-md))';

/**
 * /app/tele-ope/{mode}/{serialNo}: the robot's camera fills the main area; the state, the controls
 * lock and the robot's alerts sit on and around it; camera, drive, speech and the robot's devices
 * in the side panel; the action menu under the video. Laptop: side by side; tablet: stacked.
 */
export function OperatorScreen({ teleop, mode, sessionOptions }: OperatorScreenProps) {
  const { t } = useTranslation();
  const wide = useMediaQuery('(min-width: 62em)') ?? false;
  const op = useOperator(teleop, mode === 'drive' ? 'control' : 'watch', sessionOptions);
  const { session, snap, info, live, online, canDrive, canAct } = op;
  const actions = useRobotActions(teleop.robotId);
  const ptt = usePushToTalk(session, canDrive);
  useDriveKeys(session, {
    driving: canDrive,
    onTalk: teleop.capabilities.speech ? (on) => (on ? void ptt.start() : ptt.stop()) : undefined,
  });
  const stats = useLinkStats(session, snap.phase === 'connected');
  const phrases = useSpeechTexts(teleop.buildingId).data ?? [];
  const [tab, setTab] = useState<string | null>('drive');

  const caps = teleop.capabilities;
  const status = snap.peerStatus;
  const cameras = status?.cameras.length ? status.cameras : caps.cameras;
  const hasDevices = caps.gimbal || caps.periscope !== null || caps.ringLight || caps.patrolLamp || caps.thermal;
  const joinedAsController = snap.role === 'controller';

  const header = (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Anchor
          component={Link}
          to={paths.robot.detail.getHref(teleop.robotId)}
          size="sm"
          aria-label={t('teleopScreen.back')}
        >
          ←
        </Anchor>
        <div style={{ minWidth: 0 }}>
          <Title order={1} size="h4" lineClamp={1} data-testid="teleop-title">
            {teleop.name}
          </Title>
          <Text size="xs" c="dimmed">
            {teleop.serialNo} · {t('teleopScreen.title')}
          </Text>
        </div>
        <StateBadge state={op.badge} />
      </Group>
      <ControlsLock op={op} />
    </Group>
  );

  const video = (
    <VideoStage
      videoStream={snap.videoStream}
      audioStream={snap.audioStream}
      minHeight={wide ? 320 : '52dvh'}
      placeholder={snap.phase === 'connected' ? undefined : <SessionPlaceholder snap={snap} session={session} />}
    >
      <VideoTopRow>
        <RobotOverlay live={live} info={info} />
        <RobotAlerts
          robotId={teleop.robotId}
          live={live}
          info={info}
          online={online}
          peerStatus={status}
          controlChannel={joinedAsController ? snap.controlChannel : null}
          controlling={online && joinedAsController}
        />
        <QualityOverlay stats={stats} />
      </VideoTopRow>
    </VideoStage>
  );

  const side = (
    <Stack gap="sm">
      <Paper withBorder p="sm">
        <CameraControls session={session} cameras={cameras} status={status} enabled={canDrive} />
      </Paper>
      <Paper withBorder p="sm">
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List grow>
            <Tabs.Tab value="drive">{t('teleopScreen.tabs.drive')}</Tabs.Tab>
            {caps.speech && <Tabs.Tab value="speech">{t('teleopScreen.tabs.speech')}</Tabs.Tab>}
            {hasDevices && <Tabs.Tab value="robot">{t('teleopScreen.tabs.robot')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="drive" pt="sm">
            <DrivePanel session={session} enabled={canDrive} />
          </Tabs.Panel>
          {caps.speech && (
            <Tabs.Panel value="speech" pt="sm">
              <SpeechPanel ptt={ptt} actions={actions} phrases={phrases} canTalk={canDrive} enabled={canAct} />
            </Tabs.Panel>
          )}
          {hasDevices && (
            <Tabs.Panel value="robot" pt="sm">
              <Stack gap="md">
                <DeviceControls capabilities={caps} info={info} actions={actions} enabled={canAct} />
                {caps.thermal && (
                  <ThermalPresets
                    robotId={teleop.robotId}
                    colorMap={status?.thermalColorMap ?? null}
                    actions={actions}
                    enabled={canAct}
                  />
                )}
              </Stack>
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>
    </Stack>
  );

  const main = (
    <Stack gap="xs" style={{ minHeight: 0, flex: 1 }}>
      {caps.callService && <CallBanner call={info.call} actions={actions} enabled={online} />}
      {video}
      <ActionBar
        robotId={teleop.robotId}
        capabilities={caps}
        recording={info.recording}
        camera={status?.camera ?? null}
        actions={actions}
        enabled={canAct}
      />
    </Stack>
  );

  if (!wide)
    return (
      <Stack gap="sm" data-testid="teleop-screen" data-layout="stacked">
        {header}
        {main}
        {side}
      </Stack>
    );
  return (
    <Stack gap="sm" h={FULL_HEIGHT} mih={560} data-testid="teleop-screen" data-layout="wide">
      {header}
      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 360px', gap: 12, flex: 1, minHeight: 0 }}>
        <Stack style={{ minHeight: 0 }}>{main}</Stack>
        <ScrollArea h="100%" offsetScrollbars>
          {side}
        </ScrollArea>
      </Box>
    </Stack>
  );
}
