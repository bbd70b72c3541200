import { Anchor, Box, Group, Paper, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RobotTeleop } from '@portal/contract';
import { useState, type ReactNode } from 'react';
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
import { MappedCommands } from './mapped-commands';
import { QualityOverlay, RobotOverlay, VideoTopRow } from './link-overlay';
import { RobotAlerts } from './robot-alerts';
import { SessionPlaceholder } from './session-placeholder';
import { SpeechPanel } from './speech-panel';
import { StateBadge } from './state-badge';
import { ROOMY_QUERY, SIDE_BY_SIDE_QUERY } from './tablet-layout';
import classes from './teleop.module.css';
import { ThermalPresets } from './thermal-presets';
import { ArmPanel } from './arm-panel';
import { VideoStage } from './video-stage';

export type TeleopMode = 'drive' | 'watch';

interface OperatorScreenProps {
  teleop: RobotTeleop;
  /** drive asks for the controls when joining; watch only watches. */
  mode: TeleopMode;
  /** Tests inject the socket and the peer. */
  sessionOptions?: UseTeleopSessionOptions;
  /** The running flow's name and step (composed by the route), under the title. */
  flowStatus?: ReactNode;
  /** The "work plan" action (composed by the route): given whether the operator may act now. */
  workPlanAction?: (enabled: boolean) => ReactNode;
}

/** Fills the window below the header (AppShell header 56 px and the main area's padding). */
const FULL_HEIGHT = 'calc(100dvh - 56px - 2 * var(--mantine-spacing-md))';

/**
 * /app/tele-ope/{mode}/{serialNo}: the robot's camera fills the main area; the state, the controls
 * lock and the robot's alerts sit on and around it; camera, drive, speech and the robot's devices
 * in the side panel; the action menu under the video. 62em and wider: side by side (a narrower
 * panel below 75em); narrower (a tablet in portrait): stacked, the video as high as its picture and
 * the drive pad with its stop button right below it, beside the camera, speech and device controls,
 * so they are in view without scrolling. On a tablet every control is a 44 px touch target
 * (teleop.module.css).
 */
export function OperatorScreen({ teleop, mode, sessionOptions, flowStatus, workPlanAction }: OperatorScreenProps) {
  const { t } = useTranslation();
  const wide = useMediaQuery(SIDE_BY_SIDE_QUERY) ?? false;
  // Side by side on a tablet in landscape the video column is narrow: the alerts stand above the
  // video rather than over its picture.
  const roomy = useMediaQuery(ROOMY_QUERY) ?? false;
  const alertsAbove = wide && !roomy;
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
          className={classes.link}
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
          {flowStatus}
        </div>
        <StateBadge state={op.badge} />
      </Group>
      <ControlsLock op={op} />
    </Group>
  );

  const alerts = (
    <RobotAlerts
      robotId={teleop.robotId}
      live={live}
      info={info}
      online={online}
      peerStatus={status}
      controlChannel={joinedAsController ? snap.controlChannel : null}
      controlling={online && joinedAsController}
    />
  );
  const video = (
    <VideoStage
      videoStream={snap.videoStream}
      audioStream={snap.audioStream}
      minHeight={wide ? 320 : undefined}
      className={wide ? undefined : classes.stackedVideo}
      placeholder={snap.phase === 'connected' ? undefined : <SessionPlaceholder snap={snap} session={session} />}
    >
      <VideoTopRow>
        <RobotOverlay live={live} info={info} />
        {!alertsAbove && alerts}
        <QualityOverlay stats={stats} />
      </VideoTopRow>
    </VideoStage>
  );

  const cameraPanel = (
    <Paper withBorder p="sm">
      <CameraControls session={session} cameras={cameras} status={status} enabled={canDrive} />
    </Paper>
  );
  // Below the drive and speech tabs: the drive pad and the stop button stay in view on a tablet.
  const mappedPanel = <MappedCommands robotId={teleop.robotId} actions={actions} enabled={canAct} />;
  const drivePanel = <DrivePanel session={session} enabled={canDrive} />;
  // Stacked, the drive panel stands on its own (below the video): the tabs keep speech and devices.
  const withDriveTab = wide;
  const hasArm = caps.actions.includes('pressButton');
  const hasTabs = withDriveTab || caps.speech || hasDevices || hasArm;
  const tabValue = !withDriveTab && tab === 'drive' ? (caps.speech ? 'speech' : 'robot') : tab;
  const tabsPanel = hasTabs && (
    <Paper withBorder p="sm">
      <Tabs value={tabValue} onChange={setTab} keepMounted={false}>
        <Tabs.List grow>
          {withDriveTab && <Tabs.Tab value="drive">{t('teleopScreen.tabs.drive')}</Tabs.Tab>}
          {caps.speech && <Tabs.Tab value="speech">{t('teleopScreen.tabs.speech')}</Tabs.Tab>}
          {hasDevices && <Tabs.Tab value="robot">{t('teleopScreen.tabs.robot')}</Tabs.Tab>}
          {hasArm && <Tabs.Tab value="arm">{t('depthPress.tab')}</Tabs.Tab>}
        </Tabs.List>
        {withDriveTab && (
          <Tabs.Panel value="drive" pt="sm">
            {drivePanel}
          </Tabs.Panel>
        )}
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
        {hasArm && (
          <Tabs.Panel value="arm" pt="sm">
            <ArmPanel robotId={teleop.robotId} serialNo={teleop.serialNo} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Paper>
  );

  const callBanner = caps.callService && <CallBanner call={info.call} actions={actions} enabled={online} />;
  const actionBar = (
    <ActionBar
      robotId={teleop.robotId}
      buildingId={teleop.buildingId}
      capabilities={caps}
      recording={info.recording}
      camera={status?.camera ?? null}
      actions={actions}
      enabled={canAct}
      workPlan={workPlanAction?.(canAct)}
    />
  );

  if (!wide)
    return (
      <Stack gap="sm" className={classes.touch} data-testid="teleop-screen" data-layout="stacked">
        {header}
        {callBanner}
        {video}
        <div className={classes.stackedControls}>
          <Paper withBorder p="sm" data-testid="teleop-drive">
            {drivePanel}
          </Paper>
          <Stack gap="sm">
            {cameraPanel}
            {tabsPanel}
            {mappedPanel}
          </Stack>
        </div>
        {actionBar}
      </Stack>
    );
  return (
    <Stack gap="sm" h={FULL_HEIGHT} mih={560} className={classes.touch} data-testid="teleop-screen" data-layout="wide">
      {header}
      <Box className={classes.wideGrid}>
        <Stack gap="xs" style={{ minHeight: 0 }}>
          {callBanner}
          {/* A box of its own: the alerts' order and flex are for the row over the video. */}
          {alertsAbove && <div>{alerts}</div>}
          {video}
          {actionBar}
        </Stack>
        <ScrollArea h="100%" offsetScrollbars>
          <Stack gap="sm">
            {cameraPanel}
            {tabsPanel}
            {mappedPanel}
          </Stack>
        </ScrollArea>
      </Box>
    </Stack>
  );
}
