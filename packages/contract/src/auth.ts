import { z } from 'zod';
import { authModeSchema, operatorTypeSchema } from './codes.ts';
import { authDigitsSchema, loginIdSchema, loginPasswordSchema, personNameSchema } from './validation.ts';

export const loginBodySchema = z.object({ loginId: loginIdSchema, loginPw: loginPasswordSchema });
export type LoginBody = z.infer<typeof loginBodySchema>;

/** 200: the session (spec section 3 "Session/user"). */
export const sessionSchema = z.object({
  token: z.string(),
  id: z.number().int(),
  type: operatorTypeSchema,
  firstName: z.string(),
  lastName: z.string(),
  organizationId: z.number().int(),
  buildingId: z.number().int().nullable(),
  labsEnabled: z.boolean(),
  skywayKey: z.string(),
  language: z.enum(['ja', 'en']).nullable(),
  /** True when an administrator requires a new password: only the password change is open until then. */
  mustChangePassword: z.boolean().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/**
 * 202: a verification code was sent. `token` is a pending session token that can only be used
 * for `POST /operators/assertAuthCode`.
 */
export const loginChallengeSchema = z.object({
  token: z.string(),
  authMode: authModeSchema.exclude(['none']),
  authCodeExpiredAt: z.string(),
});
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

export const assertAuthCodeBodySchema = z.object({ authDigits: authDigitsSchema });
export type AssertAuthCodeBody = z.infer<typeof assertAuthCodeBodySchema>;

/** POST /registration-requests (/auth/register): a request for an account, mailed to the system admins. */
export const registrationRequestBodySchema = z.object({
  lastName: personNameSchema,
  firstName: personNameSchema,
  email: loginIdSchema,
  organizationName: z.string().trim().min(1, { error: 'validation.required', abort: true }).max(48, 'validation.max48'),
  message: z.string().trim().max(1000, 'validation.tooLong').default(''),
});
export type RegistrationRequestBody = z.infer<typeof registrationRequestBodySchema>;
