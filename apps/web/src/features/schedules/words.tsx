import { Badge } from '@mantine/core';
import {
  FLOW_MIN_BATTERY_PERCENT,
  SCHEDULE_LOG_DETAIL_CODES,
  SCHEDULE_LOG_REASONS,
  type ScheduleLog,
  type ScheduleLogDetailParams,
  type ScheduleLogResult,
  type ScheduleRepeat,
} from '@portal/contract';
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

/** Details that only repeat their reason's words (not shown beside it). */
const SAME_AS_REASON: ReadonlySet<string> = new Set(['robotOffline', 'emergencyStop', 'endTime']);

const isDetailCode = (code: string): code is (typeof SCHEDULE_LOG_DETAIL_CODES)[number] =>
  (SCHEDULE_LOG_DETAIL_CODES as readonly string[]).includes(code);

/**
 * A log line's detail in the reader's language (`schedules.details.*`) from its code and parameters;
 * a line without a code (older, or a code this app does not know) shows the server's English `detail`.
 * Empty when the detail only repeats the reason.
 */
export function useDetailText() {
  const { t, i18n } = useTranslation();
  return (l: { detail: string; detailCode: string | null; detailParams: ScheduleLogDetailParams }): string => {
    const code = l.detailCode;
    if (!code || !isDetailCode(code)) return l.detail;
    if (SAME_AS_REASON.has(code)) return '';
    const p = l.detailParams;
    const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));
    switch (code) {
      case 'priorityLost':
        return p.title === undefined
          ? t('schedules.details.priorityLostAnon')
          : t('schedules.details.priorityLost', { title: text(p.title) });
      case 'healthProblems': {
        const problems = text(p.problems)
          .split(',')
          .filter((x) => x !== '')
          .map((x) => {
            const key = `flowRun.healthProblems.${x}`;
            return i18n.exists(key)
              ? t(key as 'flowRun.healthProblems.lowBattery', { percent: FLOW_MIN_BATTERY_PERCENT })
              : x;
          });
        return t('schedules.details.healthProblems', {
          problems: problems.join(t('schedules.details.listSeparator')),
        });
      }
      case 'startPositionChecked':
      case 'startPositionFailed': {
        const score = typeof p.score === 'number' ? p.score.toFixed(3) : text(p.score);
        const main = t(`schedules.details.${code}`, { camera: text(p.camera), score, threshold: text(p.threshold) });
        return p.distance === undefined
          ? main
          : main + t('schedules.details.startPositionDistance', { distance: text(p.distance) });
      }
      case 'runError': {
        const key = `errors.${text(p.code)}`;
        const words = p.code && i18n.exists(key) ? t(key as 'errors.INTERNAL') : text(p.message);
        return t('schedules.details.runError', { text: words });
      }
      default: {
        const params = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, text(v)]));
        return (t as (key: string, options: Record<string, string>) => string)(`schedules.details.${code}`, params);
      }
    }
  };
}

/** A log line's robot and flow: the name (marked when deleted), else the id. */
export function useLogNames() {
  const { t } = useTranslation();
  const names = useNames();
  const named = (name: string | null, deleted: boolean, id: number | null, fallback: (id: number | null) => string) => {
    const shown = name ?? fallback(id);
    return deleted ? t('schedules.deleted', { name: shown }) : shown;
  };
  return {
    robot: (l: ScheduleLog) => named(l.robotName, l.robotDeleted, l.robotId, names.robot),
    flow: (l: ScheduleLog) => named(l.flowName, l.flowDeleted, l.flowId, names.flow),
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
