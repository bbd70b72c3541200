import { z } from 'zod';

/**
 * Schedules as API resources (issue 15; docs/api-schedules.md). A schedule entry starts a flow on a
 * robot at a time of the building's time zone, once or repeating; every occurrence that came due is
 * one line of the schedule log. Messages are i18n keys: `validation.*` (core texts) and
 * `scheduleValidation.*` (the schedules section).
 *
 * Times of an entry are wall-clock times of the building's zone (`YYYY-MM-DDTHH:mm`, no offset): a
 * weekly 09:00 patrol stays at 09:00 across a daylight-saving change. Occurrences and log lines carry
 * instants (ISO 8601 UTC) besides.
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');
const version = { updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) };

export const SCHEDULE_TITLE_MAX = 256;
export const SCHEDULE_DESCRIPTION_MAX = 1000;
/** Exceptions one entry may hold (skipped or moved occurrences). */
export const SCHEDULE_EXCEPTIONS_MAX = 500;
/** The longest occurrence (end − start). */
export const SCHEDULE_MAX_DURATION_MINUTES = 24 * 60;
/** The widest window one occurrences query may ask for. */
export const SCHEDULE_OCCURRENCES_MAX_DAYS = 62;

/** Repeat settings (spec section 9). */
export const SCHEDULE_REPEATS = ['none', 'daily', 'weekly', 'monthly'] as const;
export type ScheduleRepeat = (typeof SCHEDULE_REPEATS)[number];

/** Schedule log results (spec section 4: done, fail, cancel, running, noInfo shown as unknown). */
export const SCHEDULE_LOG_RESULTS = ['done', 'fail', 'cancel', 'running', 'unknown'] as const;
export type ScheduleLogResult = (typeof SCHEDULE_LOG_RESULTS)[number];

/**
 * Why an occurrence did not start (a log line with result `fail`), or why it ended early. Shown in
 * words in ja and en (`schedules.reasons.*`).
 */
export const SCHEDULE_LOG_REASONS = [
  /** Due while every server was down, and found after the grace period. */
  'MISSED',
  'ROBOT_OFFLINE',
  'EMERGENCY_STOP',
  /** The health check before the run failed (details name the problems). */
  'HEALTH_CHECK_FAILED',
  /** The robot was not at the flow's start position (reference images did not match). */
  'START_POSITION',
  /** Another entry due at the same time on the same robot won (priority, then the earlier entry). */
  'PRIORITY',
  /** The flow or the robot was deleted or disabled, or the flow no longer validates. */
  'FLOW_UNAVAILABLE',
  'ROBOT_UNAVAILABLE',
  /** The flow (without moves) was stopped at the entry's end time. */
  'END_TIME',
  /** The run could not be started for another reason (details say which). */
  'START_FAILED',
] as const;
export type ScheduleLogReason = (typeof SCHEDULE_LOG_REASONS)[number];

/**
 * A log line's detail as a code with parameters, written in the reader's language by the browser
 * (`schedules.details.*`); `detail` keeps the server's English text for API clients. Parameters:
 *
 * - missed: `minutes` (found that long after the due time; every server was down)
 * - missedAfterClaim: (its server stopped after claiming it; found after the grace period)
 * - priorityLost: `scheduleId`, `title` (the winning entry)
 * - flowDeleted, flowDisabled, robotDeleted, robotOtherBuilding, robotOffline, emergencyStop
 * - waitingForRobot: `serverStartedAt` (a line still to start: its robot is offline just after a
 *   server start and may be reconnecting)
 * - healthProblems: `problems` (HEALTH_PROBLEMS codes, comma-separated)
 * - startPositionChecked, startPositionFailed: `camera`, `score`, `threshold`, `takenAt`, and
 *   `distance` (metres between the reported position and the reference's, when known)
 * - startPositionNoPhoto: `camera`, `error`; startPositionNoReferences; startPositionReferenceGone:
 *   `camera`; startPositionNotPng
 * - preemptFailed: `error`; preemptTimeout
 * - runError: `code` (an error code of the API), `message`; runMessage: `message` (the flow run's)
 * - endTime
 */
export const SCHEDULE_LOG_DETAIL_CODES = [
  'missed',
  'missedAfterClaim',
  'priorityLost',
  'flowDeleted',
  'flowDisabled',
  'robotDeleted',
  'robotOtherBuilding',
  'robotOffline',
  'emergencyStop',
  'waitingForRobot',
  'healthProblems',
  'startPositionChecked',
  'startPositionFailed',
  'startPositionNoPhoto',
  'startPositionNoReferences',
  'startPositionReferenceGone',
  'startPositionNotPng',
  'preemptFailed',
  'preemptTimeout',
  'runError',
  'runMessage',
  'endTime',
] as const;
export type ScheduleLogDetailCode = (typeof SCHEDULE_LOG_DETAIL_CODES)[number];
export const scheduleLogDetailParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type ScheduleLogDetailParams = z.infer<typeof scheduleLogDetailParamsSchema>;

/** A wall-clock date-time of the building's zone: `2026-11-24T09:00`. */
export const localDateTimeSchema = z
  .string({ error: 'validation.required' })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'scheduleValidation.dateTime')
  .refine((v) => isRealDateTime(v), 'scheduleValidation.dateTime');
/** A date of the building's zone: `2026-11-24`. */
export const localDateSchema = z
  .string({ error: 'validation.required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'scheduleValidation.date')
  .refine((v) => isRealDateTime(`${v}T00:00`), 'scheduleValidation.date');

function isRealDateTime(v: string): boolean {
  const [date, time] = v.split('T') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  if (y < 2000 || y > 2200 || m < 1 || m > 12 || hh > 23 || mm > 59) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d >= 1 && d <= days;
}

/** Minutes between two wall-clock date-times (as written, ignoring the zone). */
export function localMinutesBetween(a: string, b: string): number {
  const ms = (v: string) => Date.parse(`${v}:00Z`);
  return (ms(b) - ms(a)) / 60_000;
}

/**
 * One occurrence taken out of the series: `skip` drops it; `move` runs it at `start`–`end` instead
 * (wall-clock times of the building's zone). `date` is the occurrence's original start date.
 */
export const scheduleExceptionSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ date: localDateSchema, action: z.literal('skip') }),
    z.object({
      date: localDateSchema,
      action: z.literal('move'),
      start: localDateTimeSchema,
      end: localDateTimeSchema,
    }),
  ],
  { error: 'validation.invalid' },
);
export type ScheduleException = z.infer<typeof scheduleExceptionSchema>;

const scheduleFields = z.object({
  title: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(SCHEDULE_TITLE_MAX, `validation.max${SCHEDULE_TITLE_MAX}`),
  description: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(SCHEDULE_DESCRIPTION_MAX, `validation.max${SCHEDULE_DESCRIPTION_MAX}`)
    .default(''),
  flowId: id,
  robotId: id,
  /** First occurrence's start and end (wall clock of the building's zone). */
  start: localDateTimeSchema,
  end: localDateTimeSchema,
  repeat: z.enum(SCHEDULE_REPEATS, { error: 'validation.required' }),
  /**
   * Weekdays the entry runs on (0 Sunday … 6 Saturday), required (spec §5): for `weekly` the days of
   * the week; for `daily` the days it runs (all seven: every day); for `none` and `monthly` the
   * start's weekday.
   */
  weekdays: z
    .array(z.number({ error: 'validation.invalid' }).int('validation.invalid').min(0).max(6), {
      error: 'validation.required',
    })
    .min(1, 'scheduleValidation.weekdays')
    .max(7)
    .refine((w) => new Set(w).size === w.length, 'validation.invalid'),
  /** The last date a repeating entry runs on (inclusive); null: no end. */
  repeatUntil: localDateSchema.nullable().default(null),
  /** Wins over a non-priority entry due on the same robot at the same time. */
  priority: z.boolean({ error: 'validation.required' }).default(false),
  /** Japanese public holidays are skipped. */
  skipHolidays: z.boolean({ error: 'validation.required' }).default(false),
  enabled: z.boolean({ error: 'validation.required' }).default(true),
  exceptions: z.array(scheduleExceptionSchema).max(SCHEDULE_EXCEPTIONS_MAX, 'validation.tooMany').default([]),
});

/**
 * The rules that span fields: end after start, at most 24 h; `repeatUntil` not before the start
 * date; a moved occurrence ends after it starts. The server adds those that need the database (the
 * flow and the robot in the same building, the robot may run the flow).
 */
function scheduleRules(
  s: Pick<z.infer<typeof scheduleFields>, 'start' | 'end' | 'repeat' | 'repeatUntil' | 'exceptions'>,
  ctx: z.RefinementCtx,
) {
  const minutes = localMinutesBetween(s.start, s.end);
  if (!(minutes > 0)) ctx.addIssue({ code: 'custom', path: ['end'], message: 'scheduleValidation.endBeforeStart' });
  else if (minutes > SCHEDULE_MAX_DURATION_MINUTES)
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'scheduleValidation.tooLong' });
  if (s.repeatUntil && s.repeat !== 'none' && s.repeatUntil < s.start.slice(0, 10))
    ctx.addIssue({ code: 'custom', path: ['repeatUntil'], message: 'scheduleValidation.untilBeforeStart' });
  s.exceptions.forEach((e, i) => {
    if (e.action === 'move' && !(localMinutesBetween(e.start, e.end) > 0))
      ctx.addIssue({ code: 'custom', path: ['exceptions', i, 'end'], message: 'scheduleValidation.endBeforeStart' });
  });
}

export const scheduleInputSchema = scheduleFields.superRefine(scheduleRules);
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;
export const updateScheduleBodySchema = scheduleFields.extend(version).superRefine(scheduleRules);
export type UpdateScheduleBody = z.infer<typeof updateScheduleBodySchema>;

export const scheduleSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  /** The building's IANA zone the wall-clock times are in. */
  timeZone: z.string(),
  title: z.string(),
  description: z.string(),
  flowId: z.number().int(),
  robotId: z.number().int(),
  start: z.string(),
  end: z.string(),
  repeat: z.enum(SCHEDULE_REPEATS),
  weekdays: z.array(z.number().int()),
  repeatUntil: z.string().nullable(),
  priority: z.boolean(),
  skipHolidays: z.boolean(),
  enabled: z.boolean(),
  exceptions: z.array(scheduleExceptionSchema),
  /** The next occurrence's start (ISO 8601 instant), null when none is left. */
  nextAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** Occurrences in a window, for the calendar: `from` ≤ start < `to` (ISO 8601 instants). */
export const scheduleOccurrencesQuerySchema = z.object({
  from: z.iso.datetime({ offset: true, error: 'scheduleValidation.dateTime' }),
  to: z.iso.datetime({ offset: true, error: 'scheduleValidation.dateTime' }),
  buildingId: z.coerce.number().int().min(1).optional(),
  robotId: z.coerce.number().int().min(1).optional(),
  flowId: z.coerce.number().int().min(1).optional(),
});
export type ScheduleOccurrencesQuery = z.infer<typeof scheduleOccurrencesQuerySchema>;

export const scheduleOccurrenceSchema = z.object({
  scheduleId: z.number().int(),
  title: z.string(),
  buildingId: z.number().int(),
  flowId: z.number().int(),
  robotId: z.number().int(),
  priority: z.boolean(),
  /** The occurrence's original start date (wall clock), the key of an exception. */
  date: z.string(),
  /** Instants (ISO 8601 UTC) and wall-clock times of the building's zone. */
  startAt: z.string(),
  endAt: z.string(),
  start: z.string(),
  end: z.string(),
  /** Moved by an exception. */
  moved: z.boolean(),
  /** The log line of this occurrence once it came due. */
  log: z
    .object({
      id: z.number().int(),
      result: z.enum(SCHEDULE_LOG_RESULTS),
      reason: z.string().nullable(),
      /** The line's detail (see scheduleLogSchema). */
      detail: z.string(),
      detailCode: z.string().nullable(),
      detailParams: scheduleLogDetailParamsSchema,
    })
    .nullable(),
});
export type ScheduleOccurrence = z.infer<typeof scheduleOccurrenceSchema>;

export const scheduleLogSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int().nullable(),
  /** The entry's title when it came due (kept when the entry is deleted). */
  title: z.string(),
  buildingId: z.number().int(),
  robotId: z.number().int().nullable(),
  flowId: z.number().int().nullable(),
  /**
   * The robot's and the flow's names: the current name while it exists, else the name kept on the
   * line when it was written (null: not known, a line older than the names).
   */
  robotName: z.string().nullable(),
  flowName: z.string().nullable(),
  /** The robot (deleted, soft) or the flow (deleted) no longer exists. */
  robotDeleted: z.boolean(),
  flowDeleted: z.boolean(),
  flowRunId: z.number().int().nullable(),
  /** The occurrence's due time (ISO 8601 instant). */
  dueAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  result: z.enum(SCHEDULE_LOG_RESULTS),
  /** Why it did not start or ended early (SCHEDULE_LOG_REASONS, or a run's error code); null: none. */
  reason: z.string().nullable(),
  /** The reason's details in English words (e.g. the health check's problems), for API clients. */
  detail: z.string(),
  /** The same as a code with parameters (SCHEDULE_LOG_DETAIL_CODES), null: none or an older line. */
  detailCode: z.string().nullable(),
  detailParams: scheduleLogDetailParamsSchema,
});
export type ScheduleLog = z.infer<typeof scheduleLogSchema>;
