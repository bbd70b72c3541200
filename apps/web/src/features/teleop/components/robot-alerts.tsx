import { Alert, Button, Group, Stack } from '@mantine/core';
import type { RobotLive, RobotTeleopInfo, TeleopPeerStatus } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useIssueText } from '@/components/robot-status';
import { EMERGENCY_STOP } from '../lib/teleop-state';
import type { ChannelState } from '../lib/teleop-session';
import { useRobotCommand } from '../api/send-robot-command';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';

/** Why the robot refuses manual driving (TeleopPeerStatus.blocked), as the robots report it. */
const BLOCKED_REASONS = ['emergencyStop', 'hardwareError', 'batteryEmpty', 'orderRunning', 'obstacle'] as const;
type BlockedReason = (typeof BLOCKED_REASONS)[number];
const isBlockedReason = (v: string): v is BlockedReason => (BLOCKED_REASONS as readonly string[]).includes(v);

interface RobotAlertsProps {
  robotId: number;
  live: RobotLive | null;
  info: RobotTeleopInfo;
  online: boolean;
  peerStatus: TeleopPeerStatus | null;
  /** The control channel of a controller (closed: the robot's dead-man stopped it). */
  controlChannel: ChannelState | null;
  /**
   * This screen holds the controls: pausing and resuming the patrol are offered (the server refuses
   * them to a watcher of someone else's robot); a watcher is told the state only.
   */
  controlling: boolean;
}

/**
 * What stops or blocks the robot, at the top of the video between the corner boxes (VideoTopRow):
 * offline, emergency stop (drive power cut), dead-man stop, blocked driving, the robot's messages
 * (F0001-F0007, D0001...), OS update.
 */
export function RobotAlerts({
  robotId,
  live,
  info,
  online,
  peerStatus,
  controlChannel,
  controlling,
}: RobotAlertsProps) {
  const { t } = useTranslation();
  const command = useRobotCommand(robotId);
  const errorText = useErrorText();
  const actionError = (e: unknown) => showNotification({ color: 'red', message: errorText(e) });
  const blocked = peerStatus?.blocked ?? null;
  const pausedOrder = live?.activity === 'paused' && live.orderId !== null;
  const issueText = useIssueText();
  const issues = live?.issues ?? [];
  const estop = live?.activity === 'emergencyStop' || issues.some((i) => i.code === EMERGENCY_STOP);
  const others = issues.filter((i) => i.code !== EMERGENCY_STOP);
  const deadman = peerStatus?.deadmanStopped
    ? t('teleopScreen.alerts.deadman')
    : controlChannel === 'closed'
      ? t('teleopScreen.alerts.channelClosed')
      : null;
  return (
    <Stack
      gap={6}
      data-testid="teleop-alerts"
      style={{ flex: '1 1 240px', order: 1, minWidth: 0, maxWidth: 460, marginInline: 'auto', pointerEvents: 'auto' }}
      aria-live="polite"
    >
      {!online && (
        <Alert color="gray" variant="filled" p="xs" data-testid="teleop-offline">
          {t('teleopScreen.offline')}
        </Alert>
      )}
      {online && estop && (
        <Alert color="red" variant="filled" p="xs" role="alert" data-testid="teleop-estop">
          {t('teleopScreen.alerts.emergencyStop')}
        </Alert>
      )}
      {online && deadman && (
        <Alert color="orange" variant="filled" p="xs" role="alert" data-testid="teleop-deadman">
          {deadman}
        </Alert>
      )}
      {online && blocked && (
        <Alert color="orange" variant="filled" p="xs" data-testid="teleop-blocked" data-reason={blocked}>
          {/* On a narrow video the button goes under the sentence rather than squeezing it. */}
          <Group gap="xs" justify="space-between" wrap="wrap">
            <span style={{ flex: '1 1 12em', minWidth: 0 }}>
              {t('teleopScreen.alerts.blocked', {
                reason: isBlockedReason(blocked) ? t(`teleopScreen.alerts.blockedReasons.${blocked}`) : blocked,
              })}
            </span>
            {blocked === 'orderRunning' && controlling && (
              <Button
                size="compact-sm"
                variant="white"
                color="orange"
                loading={command.isPending}
                style={{ flexShrink: 0 }}
                data-testid="teleop-pause-order"
                onClick={() => command.mutate('pause', { onError: actionError })}
              >
                {t('teleopScreen.alerts.pauseOrder')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {online && pausedOrder && !blocked && (
        <Alert color="blue" variant="filled" p="xs" data-testid="teleop-order-paused">
          <Group gap="xs" justify="space-between" wrap="wrap">
            <span style={{ flex: '1 1 12em', minWidth: 0 }}>
              {controlling ? t('teleopScreen.alerts.orderPaused') : t('teleopScreen.alerts.orderPausedWatching')}
            </span>
            {controlling && (
              <Button
                size="compact-sm"
                variant="white"
                loading={command.isPending}
                style={{ flexShrink: 0 }}
                data-testid="teleop-resume-order"
                onClick={() => command.mutate('resume', { onError: actionError })}
              >
                {t('teleopScreen.alerts.resumeOrder')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {online && others.length > 0 && (
        <Alert
          color={others.some((i) => i.level === 'FATAL') ? 'red' : 'yellow'}
          variant="filled"
          p="xs"
          data-testid="teleop-issues"
        >
          <Stack gap={2}>
            {others.map((issue, i) => (
              <span key={`${issue.code}-${i}`} data-code={issue.code}>
                {/^[A-Z]\d{4}$/.test(issue.code) ? `${issue.code} ` : ''}
                {issueText(issue)}
              </span>
            ))}
          </Stack>
        </Alert>
      )}
      {online && info.updating && (
        <Alert color="blue" variant="filled" p="xs">
          {t('teleopScreen.alerts.updating')}
        </Alert>
      )}
    </Stack>
  );
}
