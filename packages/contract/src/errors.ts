import { z } from 'zod';

/**
 * Stable machine codes of the one error body used everywhere. The web app maps each code to
 * Japanese and English text; the server's `message` is an English fallback for API clients.
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'BAD_FILTER',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_LOCKED',
  'ACCOUNT_DISABLED',
  'IP_NOT_ALLOWED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'STALE_UPDATE',
  'DUPLICATE',
  'AUTH_CODE_EXPIRED',
  'AUTH_CODE_MISMATCH',
  'AUTH_CODE_ATTEMPTS_EXCEEDED',
  'AUTH_CODE_REQUIRED',
  'WRONG_PASSWORD',
  'PASSWORD_POLICY',
  'PASSWORD_REUSED',
  'CONTRACT_ENDED',
  'PAYMENT_INCOMPLETE',
  'TERMS_NOT_APPLICABLE',
  'IN_USE',
  'IP_LIST_EMPTY',
  'PASSWORD_CHANGE_REQUIRED',
  'UNSUPPORTED_FILE_TYPE',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'ROBOT_OFFLINE',
  'NO_PATH',
  'CAPABILITY_MISSING',
  'RECORDING_ALREADY_STARTED',
  'RECORDING_NOT_STARTED',
  'OS_UPDATE_LOW_BATTERY',
  'TELEOP_LOCKED',
  'FLOW_EDIT_RESTRICTED',
  'FLOW_ALREADY_RUNNING',
  'HEALTH_CHECK_FAILED',
  'EXPORT_FORBIDDEN',
  'NO_TARGET_DATA',
  'INTERNAL',
] as const;
export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/** HTTP status of each code; 498 and 499 are the spec's contract states. */
export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  BAD_FILTER: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_LOCKED: 403,
  ACCOUNT_DISABLED: 403,
  IP_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STALE_UPDATE: 409,
  DUPLICATE: 409,
  AUTH_CODE_EXPIRED: 401,
  AUTH_CODE_MISMATCH: 400,
  AUTH_CODE_ATTEMPTS_EXCEEDED: 401,
  AUTH_CODE_REQUIRED: 401,
  WRONG_PASSWORD: 400,
  PASSWORD_POLICY: 400,
  PASSWORD_REUSED: 400,
  CONTRACT_ENDED: 499,
  PAYMENT_INCOMPLETE: 498,
  TERMS_NOT_APPLICABLE: 403,
  IN_USE: 409,
  IP_LIST_EMPTY: 400,
  PASSWORD_CHANGE_REQUIRED: 403,
  UNSUPPORTED_FILE_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  ROBOT_OFFLINE: 409,
  /** No way over the floor's route graph to the target waypoint. */
  NO_PATH: 409,
  /** The robot's factsheet does not list the action (its model cannot do it). */
  CAPABILITY_MISSING: 409,
  RECORDING_ALREADY_STARTED: 409,
  RECORDING_NOT_STARTED: 409,
  /** Spec section 8: battery must be at least 20% for OS update. */
  OS_UPDATE_LOW_BATTERY: 409,
  /** Another operator has the controls. */
  TELEOP_LOCKED: 409,
  /** A general operator whose flow editing is restricted (spec section 6): ask the organization administrator. */
  FLOW_EDIT_RESTRICTED: 403,
  /** Spec section 8 "flow already running": the robot has an active run. */
  FLOW_ALREADY_RUNNING: 409,
  /** The health check before a run failed (details: the problems). */
  HEALTH_CHECK_FAILED: 409,
  /** Spec sections 6 and 8: 'Insufficient export permission'. */
  EXPORT_FORBIDDEN: 403,
  /** Spec section 8: 'No target data found' (an export whose selection has no rows). */
  NO_TARGET_DATA: 404,
  INTERNAL: 500,
};

export const errorDetailSchema = z.object({ path: z.string(), message: z.string(), code: z.string().optional() });
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    statusCode: z.number().int(),
    code: errorCodeSchema,
    message: z.string(),
    details: z.array(errorDetailSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
