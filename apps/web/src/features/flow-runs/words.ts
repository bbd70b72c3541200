import { FLOW_MIN_BATTERY_PERCENT, HEALTH_PROBLEMS, isApiError, type HealthProblem } from '@portal/contract';
import { i18n } from '@/lib/i18n';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

type T = (key: string, options?: Record<string, unknown>) => string;

const isHealthProblem = (v: string | undefined): v is HealthProblem =>
  v !== undefined && (HEALTH_PROBLEMS as readonly string[]).includes(v);

/** The problems of a refused start (409 HEALTH_CHECK_FAILED), from the error's details; [] for any other error. */
export function healthProblemsOf(error: unknown): HealthProblem[] {
  if (!isApiError(error) || error.code !== 'HEALTH_CHECK_FAILED') return [];
  const out: HealthProblem[] = [];
  for (const d of error.details) {
    const code = d.code ?? d.message.replace(/^healthProblem\./, '');
    if (isHealthProblem(code) && !out.includes(code)) out.push(code);
  }
  return out;
}

/**
 * The words of a run: its status, a step's result, a step's kind (the editor's words), an error code
 * (the robot's codes F*, D*, A*, S* from the robots section, the phases elv_* and sec_*, the runner's
 * RUN_*), a health problem.
 */
export function useRunWords() {
  const { t: rawT } = useTranslation();
  const t = rawT as unknown as T;
  const status = useCallback((s: string) => t(`flowRun.statuses.${s}`, { defaultValue: s }), [t]);
  const stepResult = useCallback((r: string) => t(`flowRun.stepResults.${r}`, { defaultValue: r }), [t]);
  const stepKind = useCallback(
    (k: string | null | undefined) =>
      k ? t(`flowEditor.kinds.${k}`, { defaultValue: t('flowEditor.builder.unknown', { kind: k }) }) : '',
    [t],
  );
  const errorCode = useCallback((code: string | null | undefined) => errorCodeText(t, code), [t]);
  const healthProblem = useCallback(
    (p: HealthProblem) => t(`flowRun.healthProblems.${p}`, { percent: FLOW_MIN_BATTERY_PERCENT }),
    [t],
  );
  /** The elevator or door phase a ride or passage step got to (its record's `data.phase`), in words. */
  const phase = useCallback(
    (kind: string, value: unknown) => {
      if (typeof value !== 'string') return '';
      const group = kind === 'moveToFloor' ? 'elevatorPhases' : kind === 'passSecurityDoor' ? 'securityPhases' : null;
      const key = `robotCommon.buildingSystems.${group}.${value.replace(/^(elv|sec)_/, '')}`;
      return group && i18n.exists(key) ? t(key) : '';
    },
    [t],
  );
  return { t, status, stepResult, stepKind, errorCode, healthProblem, phase };
}

/** An error code in words ("" for none); an unknown code reads "Error X". */
export function errorCodeText(t: T, code: string | null | undefined): string {
  if (!code) return '';
  if (code.startsWith('RUN_') && i18n.exists(`flowRun.errorCodes.${code}`)) return t(`flowRun.errorCodes.${code}`);
  const phase = /^(elv|sec)_(\w+)$/.exec(code);
  if (phase) {
    const key = `robotCommon.buildingSystems.${phase[1] === 'elv' ? 'elevatorPhases' : 'securityPhases'}.${phase[2]}`;
    if (i18n.exists(key)) return t(key);
  }
  if (i18n.exists(`robotCommon.messages.${code}`)) return `${code} ${t(`robotCommon.messages.${code}`)}`;
  return t('flowRun.errorCodes.other', { code });
}
