import { z } from 'zod';

/**
 * The robot activity log (issue 13; docs/api-activity.md): per robot, a timeline of what happened to
 * it with syslog levels. An entry stores a kind, a code and parameters; the browser renders the ja
 * or en text from them (never a stored sentence).
 */

/** Syslog levels: 0 is the most severe. */
export const ACTIVITY_LEVELS = {
  emergency: 0,
  alert: 1,
  critical: 2,
  error: 3,
  warning: 4,
  notice: 5,
  info: 6,
  debug: 7,
} as const;
export type ActivityLevelName = keyof typeof ACTIVITY_LEVELS;
export type ActivityLevel = (typeof ACTIVITY_LEVELS)[ActivityLevelName];
export const ACTIVITY_LEVEL_NAMES = Object.keys(ACTIVITY_LEVELS) as ActivityLevelName[];
export const activityLevelSchema = z.number().int().min(0).max(7);

/**
 * Kinds and their codes. The level an entry gets by default is the code's (`record` may give another).
 * - connection: the robot's link (online, offline, connection broken: the broker's last will or the
 *   end of its session without a goodbye).
 * - robotError: an error in the robot's VDA 5050 state appeared or cleared (params errorType,
 *   errorLevel WARNING/FATAL, description).
 * - emergencyStop: the emergency stop was pressed or released.
 * - battery: the charge fell below LOW_BATTERY_PERCENT while online, or came back above it (re-arm).
 * - teleop: an operator took or gave up the controls (params operatorId, operatorName, reason).
 * - osUpdate: an administrator asked for an OS update (operatorName, version), the robot reports a new OS version (from, to).
 * - healthCheck, flow, commandError: written by the flow runner (issue 13 flows).
 */
export const ACTIVITY_CODES = {
  connection: { online: 6, offline: 5, connectionBroken: 4 },
  robotError: { errorRaised: 3, errorCleared: 6 },
  emergencyStop: { pressed: 1, released: 5 },
  battery: { low: 1, recovered: 6 },
  teleop: { controlStarted: 6, controlEnded: 6 },
  osUpdate: { requested: 5, updated: 5 },
  healthCheck: { passed: 7, failed: 0 },
  flow: { started: 6, finished: 6, failed: 3, cancelled: 5, unknown: 4 },
  commandError: { failed: 3 },
} as const satisfies Record<string, Record<string, ActivityLevel>>;
export type ActivityKind = keyof typeof ACTIVITY_CODES;
export type ActivityCode<K extends ActivityKind = ActivityKind> = K extends ActivityKind
  ? keyof (typeof ACTIVITY_CODES)[K] & string
  : never;
export const ACTIVITY_KINDS = Object.keys(ACTIVITY_CODES) as ActivityKind[];
export const activityKindSchema = z.enum(ACTIVITY_KINDS as [ActivityKind, ...ActivityKind[]]);

/** The VDA 5050 error level of a robot error, as an activity level (FATAL: critical; WARNING: warning). */
export const activityLevelOfErrorLevel = (errorLevel: string): ActivityLevel =>
  errorLevel === 'FATAL' ? ACTIVITY_LEVELS.critical : ACTIVITY_LEVELS.warning;

/** Parameters: at most this many keys, strings of at most ACTIVITY_PARAM_TEXT_MAX characters. */
export const ACTIVITY_PARAMS_MAX_KEYS = 16;
export const ACTIVITY_PARAM_TEXT_MAX = 200;
export type ActivityParamValue = string | number | boolean | null;
export type ActivityParams = Record<string, ActivityParamValue>;
/** The parameters as answered (the server bounds them when it records: docs/api-activity.md). */
export const activityParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** Retention: entries older than this many days go, and at most ACTIVITY_MAX_PER_ROBOT per robot are kept. */
export const ACTIVITY_RETENTION_DAYS = 90;
export const ACTIVITY_MAX_PER_ROBOT = 10_000;
/** A page of the activity log holds at most this many entries (`filter.limit`); default 50. */
export const ACTIVITY_PAGE_MAX = 200;

export const robotActivityEntrySchema = z.object({
  id: z.number().int(),
  robotId: z.number().int(),
  /** The robot's building when it happened. */
  buildingId: z.number().int(),
  at: z.string(),
  level: activityLevelSchema,
  kind: activityKindSchema,
  code: z.string(),
  params: activityParamsSchema,
});
export type RobotActivityEntry = z.infer<typeof robotActivityEntrySchema>;
