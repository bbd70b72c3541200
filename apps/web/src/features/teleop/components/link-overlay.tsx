import { Box, Group, Stack, Text } from '@mantine/core';
import { LOW_BATTERY_PERCENT, type RobotLive, type RobotTeleopInfo } from '@portal/contract';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LastOrderResult } from '@/components/robot-status';
import type { LinkStats } from '../lib/link-stats';
import { OverlayBox } from './video-stage';

/**
 * The top of the video: the robot's box (left), the alerts (middle) and the link quality (right)
 * side by side in one row that wraps when narrow, so a banner never covers the battery or the
 * running order.
 */
export function VideoTopRow({ children }: { children: ReactNode }) {
  return (
    <Box
      data-testid="teleop-top-row"
      style={{
        position: 'absolute',
        top: 8,
        left: 8,
        right: 8,
        zIndex: 2,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        gap: 8,
        pointerEvents: 'none',
      }}
    >
      {children}
    </Box>
  );
}

/**
 * What the running order is: the name of the waypoint or route of the portal's orders, "order from
 * the robot" for the others (never the order's id).
 */
export function orderText(t: TFunction, live: RobotLive | null): string {
  if (!live?.orderId) return t('teleopScreen.overlay.noFlow');
  const label = live.orderLabel ?? null;
  const name = !label
    ? t('teleopScreen.overlay.orders.robot')
    : label.kind === 'goto' || label.kind === 'trialRun'
      ? t(`teleopScreen.overlay.orders.${label.kind}`, { name: label.name ?? '' })
      : t(`teleopScreen.overlay.orders.${label.kind}`);
  return t('teleopScreen.overlay.flow', { name });
}

/** Top left of the video (in VideoTopRow): battery, connection interface, running order, robot speaking. */
export function RobotOverlay({ live, info }: { live: RobotLive | null; info: RobotTeleopInfo }) {
  const { t } = useTranslation();
  const battery = live?.battery ?? null;
  const low = battery !== null && battery < LOW_BATTERY_PERCENT;
  return (
    <OverlayBox style={{ position: 'relative', flex: 'none', order: 0 }}>
      <Stack gap={2} data-testid="teleop-robot-overlay">
        <Group gap={6} wrap="nowrap" data-testid="teleop-battery">
          <Text span size="xs" c="gray.4">
            {t('teleopScreen.overlay.battery')}
          </Text>
          <Text span size="sm" fw={700} c={low ? 'red.4' : undefined}>
            {battery === null
              ? t('teleopScreen.overlay.unknown')
              : t('robotCommon.batteryValue', { percent: Math.round(battery) })}
          </Text>
          {live?.batteryState && (
            <Text span size="xs">
              {t(`robotCommon.batteryStates.${live.batteryState}`)}
            </Text>
          )}
        </Group>
        <Group gap={6} wrap="nowrap">
          <Text span size="xs" c="gray.4">
            {t('teleopScreen.overlay.interface')}
          </Text>
          <Text span size="xs" ff="monospace" data-testid="teleop-interface">
            {info.networkInterface ?? t('teleopScreen.overlay.unknown')}
          </Text>
        </Group>
        <Text size="xs" data-testid="teleop-flow">
          {orderText(t, live)}
        </Text>
        {live?.lastOrder?.status === 'rejected' && <LastOrderResult order={live.lastOrder} />}
        {info.speaking && (
          <Text size="xs" c="teal.3">
            {t('teleopScreen.overlay.speaking')}
          </Text>
        )}
      </Stack>
    </OverlayBox>
  );
}

const value = (v: number | null, text: (v: number) => string, unknown: string) => (v === null ? unknown : text(v));

/** Top right of the video (in VideoTopRow): round-trip time, bitrate, frame rate, packet loss (every second). */
export function QualityOverlay({ stats }: { stats: LinkStats | null }) {
  const { t } = useTranslation();
  const unknown = t('teleopScreen.overlay.unknown');
  const lossy = (stats?.lossPercent ?? 0) >= 5 || (stats?.rttMs ?? 0) >= 300;
  return (
    <OverlayBox style={{ position: 'relative', flex: 'none', order: 2, marginLeft: 'auto', textAlign: 'right' }}>
      <Stack gap={0} data-testid="teleop-quality" aria-label={t('teleopScreen.overlay.quality')}>
        <Text span size="xs" ff="monospace" c={lossy ? 'orange.4' : undefined}>
          {value(stats?.rttMs ?? null, (ms) => t('teleopScreen.overlay.rtt', { ms }), `RTT ${unknown}`)}
        </Text>
        <Text span size="xs" ff="monospace">
          {value(stats?.bitrateKbps ?? null, (kbps) => t('teleopScreen.overlay.bitrate', { kbps }), unknown)} ·{' '}
          {value(stats?.fps ?? null, (fps) => t('teleopScreen.overlay.fps', { fps }), unknown)}
        </Text>
        <Text span size="xs" ff="monospace" c={lossy ? 'orange.4' : undefined}>
          {value(stats?.lossPercent ?? null, (percent) => t('teleopScreen.overlay.loss', { percent }), unknown)}
        </Text>
      </Stack>
    </OverlayBox>
  );
}
