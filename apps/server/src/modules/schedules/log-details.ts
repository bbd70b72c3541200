import type { ScheduleLogDetailCode, ScheduleLogDetailParams } from '@portal/contract';
import { sql } from 'kysely';

/**
 * A schedule log line's detail (docs/api-schedules.md "Log lines"): a code with parameters that the
 * browser writes in the reader's language (`schedules.details.*`), and the same in English words in
 * `detail` for API clients. Each builder answers the three columns, to spread into a line's update.
 */
export interface LogDetail {
  detail: string;
  detail_code: ScheduleLogDetailCode | null;
  /** JSON object of strings and numbers. */
  detail_params: string;
}

const DETAIL_MAX = 1000;
const PARAM_TEXT_MAX = 300;

function logDetail(code: ScheduleLogDetailCode, params: ScheduleLogDetailParams, text: string): LogDetail {
  const bounded: ScheduleLogDetailParams = {};
  for (const [k, v] of Object.entries(params)) bounded[k] = typeof v === 'string' ? v.slice(0, PARAM_TEXT_MAX) : v;
  return { detail: text.slice(0, DETAIL_MAX), detail_code: code, detail_params: JSON.stringify(bounded) };
}

export const noDetail: LogDetail = { detail: '', detail_code: null, detail_params: '{}' };

const errorText = (err: unknown) => String((err as Error | undefined)?.message ?? err);

export const logDetails = {
  /** Claimed after the grace period: every server was down at the due time. */
  missed: (minutes: number) => logDetail('missed', { minutes }, `found ${minutes} min after its due time`),
  /** Its claimer stopped before starting it, and the grace period is over. */
  missedAfterClaim: () =>
    logDetail('missedAfterClaim', {}, 'its server stopped before starting it; found after the grace period'),
  /** Another entry due at the same instant on the robot won (the winner, when known). */
  priorityLost: (winner: { scheduleId: number; title: string } | null) =>
    logDetail(
      'priorityLost',
      winner ? { scheduleId: winner.scheduleId, title: winner.title } : {},
      winner
        ? `another entry due at the same time on this robot won: "${winner.title}" (#${winner.scheduleId})`
        : 'another entry due at the same time on this robot won',
    ),
  flowDeleted: () => logDetail('flowDeleted', {}, 'the flow was deleted'),
  flowDisabled: () => logDetail('flowDisabled', {}, 'the flow is disabled'),
  robotDeleted: () => logDetail('robotDeleted', {}, 'the robot was deleted'),
  robotOtherBuilding: () => logDetail('robotOtherBuilding', {}, 'the robot is not in the flow’s building'),
  robotOffline: () => logDetail('robotOffline', {}, 'the robot is offline'),
  emergencyStop: () => logDetail('emergencyStop', {}, 'the robot is in an emergency stop'),
  /** Claimed just after a server start with the robot offline: tried again while it may be reconnecting. */
  waitingForRobot: (words: string, serverStartedAt: string) =>
    logDetail('waitingForRobot', { serverStartedAt }, `${words} (server started ${serverStartedAt})`),
  /** The health check's problems (HEALTH_PROBLEMS codes). */
  healthProblems: (problems: string[]) =>
    logDetail('healthProblems', { problems: problems.join(',') }, problems.join(', ')),
  preemptFailed: (err: unknown) =>
    logDetail('preemptFailed', { error: errorText(err) }, `the running flow could not be cancelled: ${errorText(err)}`),
  preemptTimeout: () => logDetail('preemptTimeout', {}, 'the running flow did not end in time'),
  /** The run was refused with an API error code (or another error: code empty). */
  runError: (code: string | null, message: string) =>
    logDetail('runError', { code: code ?? '', message }, code ? `${code}: ${message}` : message),
  /** The flow run's own message, taken when the run ended. */
  runMessage: (message: string) => logDetail('runMessage', { message }, message),
  endTime: () => logDetail('endTime', {}, 'stopped at the entry’s end time'),
  /** The start-position check's own code and parameters (start-position-service.ts). */
  startPosition: (check: { detail: string; code: ScheduleLogDetailCode; params: ScheduleLogDetailParams }) =>
    logDetail(check.code, check.params, check.detail),
};

/**
 * The robot's and the flow's names, read by the statement that writes the line (kept for when the
 * robot or the flow is deleted): subqueries, no extra round trip. Typed as the column's value.
 */
export const logNames = (robotId: number | null, flowId: number | null) => ({
  robot_name: sql`(select name from robots where id = ${robotId ?? -1})` as unknown as string | null,
  flow_name: sql`(select name from flows where id = ${flowId ?? -1})` as unknown as string | null,
});

/** A stored line's detail as the API answers it. */
export function detailOf(r: { detail_code: string | null; detail_params: string }): {
  detailCode: string | null;
  detailParams: ScheduleLogDetailParams;
} {
  let params: ScheduleLogDetailParams = {};
  try {
    const parsed = JSON.parse(r.detail_params) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
    }
  } catch {
    params = {};
  }
  return { detailCode: r.detail_code, detailParams: params };
}
