import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  isRobotMessageCode,
  LOW_BATTERY_PERCENT,
  type BatteryStateLabel,
  type RobotIssue,
  type RobotStatusLabel,
  type SentOrder,
} from '@portal/contract';
import { memo, useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';

/**
 * Pieces of robot state shown by both the robot screens and the dashboard (texts of the lazily
 * loaded `robots` locale section: only routes that load it may render these).
 */
export const statusColors: Record<RobotStatusLabel, string> = {
  available: 'green',
  unavailable: 'red',
  maintenance: 'yellow',
  repair: 'orange',
  repairShop: 'grape',
  offline: 'gray',
  unknown: 'dark',
};

/**
 * The robot's status; `notReporting` (online but silent beyond its state interval, RobotLive) adds a
 * "not reporting" badge: what is shown may be out of date.
 */
export function StatusBadge({
  label,
  size = 'md',
  notReporting = false,
}: {
  label: RobotStatusLabel;
  size?: 'sm' | 'md' | 'lg';
  notReporting?: boolean | undefined;
}) {
  const { t } = useTranslation();
  const badge = (
    <Badge color={statusColors[label]} variant="light" size={size} data-testid="robot-status" data-status={label}>
      {t(`robotCommon.statusLabels.${label}`)}
    </Badge>
  );
  if (!notReporting) return badge;
  return (
    <Group gap={4} wrap="nowrap">
      {badge}
      <Tooltip label={t('robotCommon.notReportingHint')}>
        <Badge color="orange" variant="outline" size={size} data-testid="robot-not-reporting">
          {t('robotCommon.notReporting')}
        </Badge>
      </Tooltip>
    </Group>
  );
}

const REFUSALS = ['noRouteError', 'validationError', 'orderError', 'orderUpdateError'] as const;

/**
 * What became of the last order the portal sent (RobotLive.lastOrder): sent, accepted, finished, or
 * refused by the robot with the reason in the user's language (the robot's own error type and
 * description when the portal has no text for it).
 */
export function LastOrderResult({ order }: { order: SentOrder | null | undefined }) {
  const { t } = useTranslation();
  if (!order) return null;
  let text: string;
  if (order.status === 'rejected') {
    const type = order.error?.type ?? '';
    const reason = (REFUSALS as readonly string[]).includes(type)
      ? t(`robotCommon.orderRefusal.${type as (typeof REFUSALS)[number]}`)
      : t('robotCommon.orderRefusal.other', {
          type: [type, order.error?.description].filter(Boolean).join(': '),
        });
    text = t('robotCommon.lastOrder.rejected', { reason });
  } else text = t(`robotCommon.lastOrder.${order.status}`);
  return (
    <Text
      size="sm"
      c={order.status === 'rejected' ? 'red' : undefined}
      data-testid="robot-last-order"
      data-status={order.status}
    >
      {text}
    </Text>
  );
}

export const isLowBattery = (battery: number | null): boolean => battery !== null && battery < LOW_BATTERY_PERCENT;

/** Battery percent and state, with a warning below the low charge threshold. */
export function BatteryIndicator({ battery, state }: { battery: number | null; state: BatteryStateLabel | null }) {
  const { t } = useTranslation();
  const low = isLowBattery(battery);
  const percent = battery === null ? null : Math.round(battery);
  return (
    <Group gap={6} wrap="nowrap" data-testid="robot-battery" data-low={low ? 'true' : undefined}>
      <Text size="sm" fw={600} c={low ? 'red' : undefined}>
        {percent === null ? t('robotCommon.unknownValue') : t('robotCommon.batteryValue', { percent })}
      </Text>
      {state && (
        <Text size="xs" c="dimmed">
          {t(`robotCommon.batteryStates.${state}`)}
        </Text>
      )}
      {low && (
        <Tooltip label={t('robotCommon.lowBattery', { percent: LOW_BATTERY_PERCENT })}>
          <Badge color="red" variant="filled" size="xs">
            {t('robotCommon.messages.lowBattery')}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/** The text of a robot message (spec section 8) in the user's language; unknown codes as reported. */
export function useIssueText(): (issue: RobotIssue) => string {
  const { t } = useTranslation();
  return useCallback(
    (issue) =>
      isRobotMessageCode(issue.code)
        ? t(`robotCommon.messages.${issue.code}`)
        : [issue.code, issue.description].filter(Boolean).join(': '),
    [t],
  );
}

export function IssueList({ issues, compact = false }: { issues: readonly RobotIssue[]; compact?: boolean }) {
  const { t } = useTranslation();
  const text = useIssueText();
  if (issues.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="robot-issues" data-count="0">
        {t('robotCommon.noIssues')}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="robot-issues" data-count={issues.length}>
      {(compact ? issues.slice(0, 2) : issues).map((issue, i) => (
        <Text key={`${issue.code}-${i}`} size="sm" c={issue.level === 'FATAL' ? 'red' : 'orange'} lineClamp={1}>
          {issue.level === 'FATAL' ? '⛔' : '⚠'} {text(issue)}
        </Text>
      ))}
      {compact && issues.length > 2 && (
        <Text size="xs" c="dimmed">
          +{issues.length - 2}
        </Text>
      )}
    </Stack>
  );
}

// ---------------------------------------------------------------- relative time

/** One shared clock for every "5 s ago" on screen (a list of 2,000 robots must not start 2,000 timers). */
let now = Date.now();
const clockListeners = new Set<() => void>();
let clock: ReturnType<typeof setInterval> | null = null;
const subscribeClock = (listener: () => void) => {
  clockListeners.add(listener);
  if (!clock)
    clock = setInterval(() => {
      now = Date.now();
      clockListeners.forEach((l) => l());
    }, 1_000);
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clock) {
      clearInterval(clock);
      clock = null;
    }
  };
};
const getNow = () => now;

export function useNow(): number {
  return useSyncExternalStore(subscribeClock, getNow, getNow);
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

export function formatRelative(iso: string, nowMs: number, lang: string): string {
  const seconds = Math.round((new Date(iso).getTime() - nowMs) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-US', { numeric: 'auto' });
  const abs = Math.abs(seconds);
  for (const [unit, size] of units)
    if (abs >= size || unit === 'second') return rtf.format(Math.round(seconds / size), unit);
  return rtf.format(0, 'second');
}

/**
 * "12 seconds ago", updating every second; the full date and time as its title, in the zone of the
 * robot's building (the browser's without one).
 */
export const RelativeTime = memo(function RelativeTime({
  value,
  buildingId,
}: {
  value: string | null;
  buildingId?: number | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const timeZone = useBuildingTimeZone(buildingId);
  const nowMs = useNow();
  if (!value) return <span>{t('robotCommon.never')}</span>;
  // Clocks differ a little: a time slightly in the future is "now".
  return (
    <time dateTime={value} title={format.dateTime(value, { timeZone })}>
      {formatRelative(value, Math.max(nowMs, new Date(value).getTime()), format.lang)}
    </time>
  );
});
