import { Badge } from '@mantine/core';
import { isAbnormalResult } from '@portal/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n, useMessageText } from '@/lib/i18n';

type T = (key: string, options?: Record<string, unknown>) => string;

/** Result colours: abnormal results red or orange (with a warning sign, never colour alone). */
export function resultColour(result: number): string {
  if (result === 1 || result === 9) return 'red';
  if (result === 4) return 'orange';
  if (result === 0 || result === 10) return 'green';
  if (result === 11) return 'yellow';
  return 'gray';
}

/** A result in words; an abnormal one (1, 4, 9) carries a warning sign and `data-abnormal`. */
export function ResultBadge({ result, testId = 'report-result' }: { result: number; testId?: string }) {
  const { t } = useReportWords();
  const abnormal = isAbnormalResult(result);
  return (
    <Badge
      color={resultColour(result)}
      variant={abnormal ? 'filled' : 'light'}
      miw="max-content"
      styles={{ label: { overflow: 'visible' } }}
      leftSection={abnormal ? <span aria-hidden="true">⚠</span> : undefined}
      data-testid={testId}
      data-abnormal={abnormal ? 'true' : undefined}
    >
      {t(`reports.results.${result}`, { defaultValue: String(result) })}
    </Badge>
  );
}

/**
 * The words of reports: header type, result, detail type, caller, a step's kind (the flow editor's
 * words, flows section), an error code (the runner's RUN_* from the flows section, the robot's codes
 * F*, D*, A*, S* and the elevator and door phases from the robots section), a duration.
 */
export function useReportWords() {
  const { t: rawT } = useTranslation();
  const t = rawT as unknown as T;
  const type = useCallback((v: number) => t(`reports.types.${v}`, { defaultValue: String(v) }), [t]);
  const result = useCallback((v: number) => t(`reports.results.${v}`, { defaultValue: String(v) }), [t]);
  const detailType = useCallback((v: number) => t(`reports.detailTypes.${v}`, { defaultValue: String(v) }), [t]);
  const caller = useCallback((v: string) => t(`reports.callers.${v}`, { defaultValue: v }), [t]);
  const stepKind = useCallback((k: string) => t(`flowEditor.kinds.${k}`, { defaultValue: k }), [t]);
  const errorCode = useCallback((code: string | null | undefined) => errorCodeText(t, code), [t]);
  const duration = useCallback(
    (seconds: number) => {
      const h = Math.floor(seconds / 3600);
      const m = Math.floor((seconds % 3600) / 60);
      const s = seconds % 60;
      if (h > 0) return t('reports.duration.h', { h, m });
      if (m > 0) return t('reports.duration.m', { m, s });
      return t('reports.duration.s', { s });
    },
    [t],
  );
  return { t, type, result, detailType, caller, stepKind, errorCode, duration };
}

/** An error code in words ("" for none); an unknown code reads "Error X". */
export function errorCodeText(t: T, code: string | null | undefined): string {
  if (!code) return '';
  if (i18n.exists(`flowRun.errorCodes.${code}`)) return t(`flowRun.errorCodes.${code}`);
  const phase = /^(elv|sec)_(\w+)$/.exec(code);
  if (phase) {
    const key = `robotCommon.buildingSystems.${phase[1] === 'elv' ? 'elevatorPhases' : 'securityPhases'}.${phase[2]}`;
    if (i18n.exists(key)) return t(key);
  }
  if (i18n.exists(`robotCommon.messages.${code}`)) return `${code} ${t(`robotCommon.messages.${code}`)}`;
  return t('reports.errorCodes.other', { code });
}

type Values = Record<string, string | number | boolean | null>;

/** The known keys of a detail's values and the label (`reports.valueLabels.*`) each is shown under. */
const VALUE_KEYS: Record<string, string> = {
  waypointName: 'waypoint',
  waypointId: 'waypoint',
  routeName: 'route',
  floorName: 'floor',
  floorId: 'floor',
  camera: 'camera',
  task: 'task',
  level: 'level',
  targets: 'targets',
  seconds: 'seconds',
  detected: 'detected',
  door: 'door',
  phase: 'phase',
  resumed: 'resumed',
  checkItemName: 'checkItem',
  checkItemId: 'checkItem',
  value: 'reading',
  qr: 'qr',
  breachLogId: 'breachLog',
};

/**
 * Keys a detail's other values already say: a name copied with the report stands for its id, a
 * reading's unit is written after its value, and a meter check's own `result` is the detail's result.
 */
const shownElsewhere = (k: string, values: Values): boolean =>
  (k === 'waypointId' && !!values.waypointName) ||
  (k === 'floorId' && !!values.floorName) ||
  (k === 'checkItemId' && !!values.checkItemName) ||
  (k === 'unit' && values.value !== null && values.value !== undefined) ||
  (k === 'result' && 'checkItemId' in values);

/**
 * A detail's values as `label: value` pairs in words (the export writes the same: server
 * report-exports/export-texts.ts `valuesInWords`): a name copied with the report stands for its id
 * (`waypointName` for `waypointId`, `floorName` for `floorId`, `checkItemName` for `checkItemId`), a
 * known key gets its label and its value words (level, camera, yes/no, a door's or elevator's phase,
 * a meter reading with its unit, the threshold log line's number), an unknown key stays as it is;
 * null, empty and the message repeated are left out.
 */
export function valueEntries(t: T, values: Values, message?: string | null): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, raw] of Object.entries(values)) {
    if (raw === null || raw === '' || raw === message) continue;
    if (shownElsewhere(k, values)) continue;
    const label = VALUE_KEYS[k];
    if (!label) {
      out.push([k, String(raw)]);
      continue;
    }
    let word = typeof raw === 'boolean' ? t(raw ? 'reports.valueWords.yes' : 'reports.valueWords.no') : String(raw);
    if (k === 'level') word = t(`reports.valueWords.levels.${word}`, { defaultValue: word });
    if (k === 'camera') word = t(`reports.valueWords.cameras.${word}`, { defaultValue: word });
    if (k === 'value' && typeof values.unit === 'string' && values.unit !== '') word = `${word} ${values.unit}`;
    if (k === 'breachLogId') word = `#${word}`;
    if (k === 'phase') {
      const kind = 'door' in values ? 'securityPhases' : 'elevatorPhases';
      const key = `robotCommon.buildingSystems.${kind}.${word}`;
      if (i18n.exists(key)) word = t(key);
    }
    out.push([t(`reports.valueLabels.${label}`), word]);
  }
  return out;
}

/** A detail's values in words as one line ("Waypoint: Entrance, Task: 夜間点検"). */
export const valuesText = (t: T, values: Values, message?: string | null): string =>
  valueEntries(t, values, message)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

/** Translates a field message: the section's `reportValidation.*` texts, else the core `validation.*` ones. */
export function useReportMessageText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  const core = useMessageText();
  return useCallback(
    (message) =>
      message?.startsWith('reportValidation.') && i18n.exists(message) ? (t as unknown as T)(message) : core(message),
    [t, core],
  );
}

/** An export's failure (a `reportValidation.*` key or an error code) in words; anything else as given. */
export function useJobErrorText(): (error: string | null) => string {
  const { t } = useTranslation();
  return useCallback(
    (error) => {
      if (!error) return '';
      const tt = t as unknown as T;
      if (error.startsWith('reportValidation.') && i18n.exists(error)) return tt(error);
      if (i18n.exists(`errors.${error}`)) return tt(`errors.${error}`);
      return error;
    },
    [t],
  );
}
