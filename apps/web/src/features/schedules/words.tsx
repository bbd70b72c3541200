import { Badge } from '@mantine/core';
import { SCHEDULE_LOG_REASONS, type ScheduleLogResult, type ScheduleRepeat } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { useMessageText } from '@/lib/i18n';
import { useRobotOptions, useFlowOptions } from './api';

export const RESULT_COLOURS: Record<ScheduleLogResult, string> = {
  done: 'green',
  fail: 'red',
  cancel: 'gray',
  running: 'blue',
  unknown: 'yellow',
};

export function ResultBadge({ result }: { result: ScheduleLogResult }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={RESULT_COLOURS[result]}
      variant="light"
      miw="max-content"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="schedule-result"
    >
      {t(`schedules.results.${result}`)}
    </Badge>
  );
}

/** "Weekly (Mon, Wed)", "Daily (every day)", "Once". */
export function useRepeatText() {
  const { t } = useTranslation();
  return (repeat: ScheduleRepeat, weekdays: number[]) => {
    const name = t(`schedules.repeats.${repeat}`);
    if (repeat === 'none' || repeat === 'monthly') return name;
    const days =
      weekdays.length === 7
        ? t('schedules.everyDay')
        : [...weekdays]
            .sort((a, b) => a - b)
            .map((d) => t(`schedules.weekdaysShort.${String(d) as '0'}`))
            .join(t('schedules.daySeparator'));
    return t('schedules.repeatOn', { repeat: name, days });
  };
}

const isScheduleReason = (code: string): code is (typeof SCHEDULE_LOG_REASONS)[number] =>
  (SCHEDULE_LOG_REASONS as readonly string[]).includes(code);

/**
 * A log reason in words: the schedule's own reasons, else a flow run's error (`flowRun.errorCodes`,
 * the flows section, loaded with the schedule routes), else the code.
 */
export function useReasonText() {
  const { t, i18n } = useTranslation();
  return (code: string | null): string => {
    if (!code) return '';
    if (isScheduleReason(code)) return t(`schedules.reasons.${code}`);
    const runKey = `flowRun.errorCodes.${code}`;
    if (i18n.exists(runKey)) return t(runKey as 'flowRun.errorCodes.RUN_OFFLINE');
    return t('schedules.reasons.other', { code });
  };
}

/** Names of buildings, robots and flows by id (the lists hold ids). */
export function useNames() {
  const robots = useRobotOptions();
  const flows = useFlowOptions();
  const robotNames = new Map((robots.data ?? []).map((r) => [r.id, r.name]));
  const flowNames = new Map((flows.data ?? []).map((f) => [f.id, f.name]));
  const buildings = useQuery(buildingFilterOptions());
  const buildingNames = new Map((buildings.data ?? []).map((b) => [b.id, b.name]));
  return {
    building: (id: number) => buildingNames.get(id) ?? `#${id}`,
    robot: (id: number | null) => (id === null ? '' : (robotNames.get(id) ?? `#${id}`)),
    flow: (id: number | null) => (id === null ? '' : (flowNames.get(id) ?? `#${id}`)),
  };
}

/** Translates a field message: `scheduleValidation.*` of the schedules section, else the core `validation.*`. */
export function useScheduleMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (message?.startsWith('scheduleValidation.') && i18n.exists(message))
        return (t as (key: string) => string)(message);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}
