import { z } from 'zod';

/**
 * Reports (issue 16; docs/api-reports.md). Every flow run makes one report when it ends (done, fail,
 * cancel or unknown): a header (type, building, floor, robot, caller, start, end, result) and one
 * detail per step the run carried out (a loop's steps once per pass), with the step's result, message,
 * values, the photo it saved and where the robot was. The report is written from the run's record
 * right after the runner closes the run (once: `flow_run_id` is unique), a run closed after a restart
 * included; a sweep catches up a report a crash left unwritten.
 *
 * Messages are i18n keys: `validation.*` (core texts) and `reportValidation.*`.
 */

/** Report header types (spec section 9): 0 patrol, 1 sentry, 30 cleaning. A flow's `reportType` sets it. */
export const REPORT_TYPES = [0, 1, 30] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Who started the run: a schedule entry, an operator (flow screen, operator screen) or a trigger. */
export const REPORT_CALLERS = ['schedule', 'operator', 'trigger'] as const;
export type ReportCaller = (typeof REPORT_CALLERS)[number];

/**
 * Results (spec section 4, report detail results): 0 normal, 1 abnormal, 4 device not found, 9 error,
 * 10 complete, 11 partial, 12 cancel.
 * - A report's result: 10 every step done; 11 the run finished but some steps failed and were
 *   skipped; 12 cancelled; 9 the run failed (or ended unknown after a restart).
 * - A detail's result: 10 the step was done; 0 / 1 a check's reading within / outside its threshold
 *   (issue 17); 4 the device or marker was not found; 9 the step failed; 11 failed and skipped by
 *   its error policy; 12 cancelled with the run.
 */
export const REPORT_RESULTS = [0, 1, 4, 9, 10, 11, 12] as const;
export type ReportResult = (typeof REPORT_RESULTS)[number];
/** Results that stand out on the list and in the detail: abnormal, device not found, error. */
export const ABNORMAL_RESULTS = [1, 4, 9] as const satisfies readonly ReportResult[];
export const isAbnormalResult = (r: number): boolean => r === 1 || r === 4 || r === 9;

/**
 * Report detail types (spec section 9 lists 0, 1, 2, 3, 11, 12, 13, 20, 30, 50, 51; their meaning in
 * this product):
 * 0 movement (waypoint, route, charger), 1 photo, 2 meter reading, 3 check (not a meter),
 * 11 task start, 12 task event, 13 task complete, 20 notification, 30 floor change (elevator) or
 * security door, 50 robot setting (camera, pose, lights, face, speech, audio, recording, safety
 * margin, wait), 51 command or work plan.
 */
export const REPORT_DETAIL_TYPES = [0, 1, 2, 3, 11, 12, 13, 20, 30, 50, 51] as const;
export type ReportDetailType = (typeof REPORT_DETAIL_TYPES)[number];

/** The detail type of a flow step kind (the runner's kinds; check kinds of issue 17 map to 2 and 3). */
export function reportDetailTypeOf(kind: string): ReportDetailType {
  switch (kind) {
    case 'moveToWaypoint':
    case 'followRoute':
    case 'returnToCharger':
      return 0;
    case 'takePhoto':
      return 1;
    case 'readMeter':
    case 'meterCheck':
      return 2;
    case 'check':
      return 3;
    case 'taskStart':
      return 11;
    case 'taskEvent':
      return 12;
    case 'taskComplete':
      return 13;
    case 'notification':
      return 20;
    case 'moveToFloor':
    case 'passSecurityDoor':
      return 30;
    case 'command':
    case 'launchWorkPlan':
      return 51;
    default:
      return 50;
  }
}

/** A photo the run saved: the full image (up to 4K, as the robot sent it) and a thumbnail for lists. */
export const reportPhotoSchema = z.object({
  /** Signed URLs (`/api/files/...`), valid for a while; the detail is fetched again for fresh ones. */
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  camera: z.string().nullable(),
  /** A download name: `<robot>-<yyyymmdd-hhmmss>-<seq>.png`. */
  fileName: z.string(),
});
export type ReportPhoto = z.infer<typeof reportPhotoSchema>;

export const reportSchema = z.object({
  id: z.number().int(),
  flowRunId: z.number().int(),
  flowId: z.number().int().nullable(),
  /** Names as they were when the run ended (kept when the flow, robot or floor is deleted or renamed). */
  flowName: z.string(),
  type: z.union(REPORT_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<30>]),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  buildingName: z.string(),
  /** The floor the run started on. */
  floorId: z.number().int().nullable(),
  floorName: z.string(),
  robotId: z.number().int().nullable(),
  robotName: z.string(),
  robotSerial: z.string(),
  caller: z.enum(REPORT_CALLERS),
  /** The operator's name or the schedule entry's title; null for a trigger or a deleted operator. */
  callerName: z.string().nullable(),
  scheduleId: z.number().int().nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  result: z.number().int(),
  /** The run's error code when it failed (spec section 8 codes, RUN_*). */
  errorCode: z.string().nullable(),
  /** Details with result 1, 4 or 9. */
  abnormalCount: z.number().int(),
  photoCount: z.number().int(),
  detailCount: z.number().int(),
  /** The first photo's thumbnail, for the list. */
  thumbnailUrl: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportDetailSchema = z.object({
  id: z.number().int(),
  /** Order within the report (1, 2, ...). */
  seq: z.number().int(),
  /** The flow definition step's id and kind. */
  stepId: z.string(),
  kind: z.string(),
  type: z.number().int(),
  result: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Spec section 8 code of a failed step (F0001...), shown in words. */
  errorCode: z.string().nullable(),
  /** The step's message (a task event's text, a notification's text, a check's verdict). */
  message: z.string().nullable(),
  /** What the step measured or did: a meter's value and unit, a waypoint's name, a floor... */
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  photo: reportPhotoSchema.nullable(),
  /** Where the robot was when the step ended (map coordinates of that floor, metres). */
  floorId: z.number().int().nullable(),
  x: z.number().nullable(),
  y: z.number().nullable(),
});
export type ReportDetail = z.infer<typeof reportDetailSchema>;

/** The path driven on one floor: points `[x, y]` in map metres, in order. */
export const reportTrackSchema = z.object({
  floorId: z.number().int(),
  floorName: z.string(),
  points: z.array(z.tuple([z.number(), z.number()])),
});
export type ReportTrack = z.infer<typeof reportTrackSchema>;

export const reportDetailViewSchema = reportSchema.extend({
  details: z.array(reportDetailSchema),
  /** The path per floor, in the order the floors were visited. */
  tracks: z.array(reportTrackSchema),
  /** The building's IANA zone (times are shown in it). */
  timeZone: z.string(),
});
export type ReportDetailView = z.infer<typeof reportDetailViewSchema>;

/** Points kept per floor of a track (the runner thins them to this). */
export const REPORT_TRACK_POINTS_MAX = 5000;
