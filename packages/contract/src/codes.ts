/** Codes and enums of the specification (portal-spec.md sections 4, 6 and 9). */
import { z } from 'zod';

export const APP_VERSION = '1.14.1';

/** Operator type codes (spec section 6). Any non-zero type is an administrator. */
export const OperatorType = { general: 0, areaManager: 1, orgAdmin: 2, systemAdmin: 9 } as const;
export const operatorTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(9)]);
export type OperatorTypeCode = z.infer<typeof operatorTypeSchema>;
export const isAdmin = (type: number): boolean => type !== OperatorType.general;
export const isSystemAdmin = (type: number): boolean => type === OperatorType.systemAdmin;
/**
 * The one rule of who manages an organization's data (operators, buildings, robots, maps, poses...):
 * organization administrators and system administrators. Area managers and general operators read.
 */
export const isDataAdmin = (type: number): boolean =>
  type === OperatorType.orgAdmin || type === OperatorType.systemAdmin;

export const languageSchema = z.enum(['ja', 'en']);
export type Language = z.infer<typeof languageSchema>;

/** Login method: none, or a verification code by email or SMS. */
export const authModeSchema = z.enum(['none', 'email', 'sms']);
export type AuthMode = z.infer<typeof authModeSchema>;

/** General record status (spec section 4): 0 unavailable, 1 available. */
export const recordStatusSchema = z.union([z.literal(0), z.literal(1)]);

/** Organization types (spec section 3). */
export const OrganizationType = { userCompany: 0, distributor: 1, supervisor: 2, management: 3 } as const;
export const organizationTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

/** Floor types (spec section 3). */
export const floorTypeSchema = z.enum(['office', 'commercial', 'entrance', 'station', 'parking']);

/** Notification and message levels (spec section 9). */
export const levelSchema = z.union([z.literal(0), z.literal(5), z.literal(9)]);

/** Term document kinds (spec section 3). */
export const termKindSchema = z.enum(['TOS', 'PP', 'MC']);
export type TermKind = z.infer<typeof termKindSchema>;

/** Timing constants of spec section 9. */
export const LOGIN_REDIRECT_DELAY_MS = 500;
export const ACCOUNT_LOCK_MINUTES = 10;
export const MAX_FAILED_LOGINS = 5;
export const AUTH_CODE_TTL_MINUTES = 10;
export const AUTH_CODE_MAX_ATTEMPTS = 3;
export const CONTRACT_WARNING_DAYS = 31;
