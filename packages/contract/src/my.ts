import { z } from 'zod';
import { authModeSchema, languageSchema, levelSchema, operatorTypeSchema, termKindSchema } from './codes.ts';
import {
  authDigitsSchema,
  loginIdSchema,
  operatorPasswordSchema,
  personNameSchema,
  phoneSchema,
} from './validation.ts';

const id = z.number().int();

export const profileSchema = z.object({
  id,
  loginId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  language: languageSchema.nullable(),
  authMode: authModeSchema,
  type: operatorTypeSchema,
  organizationId: id,
  organizationName: z.string(),
  buildingId: id.nullable(),
  buildingName: z.string().nullable(),
  usage: z.object({ logins: z.number().int(), activeSessions: z.number().int() }),
  /**
   * An email change waiting for the code sent to the new address (the email above changes only when
   * the code is entered: POST /my/email/confirm), or null.
   */
  pendingEmail: z.object({ email: z.string(), expiresAt: z.string() }).nullable(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** The code sent to the new email address. */
export const confirmEmailBodySchema = z.object({
  code: authDigitsSchema,
});
export type ConfirmEmailBody = z.infer<typeof confirmEmailBodySchema>;
/** Wrong codes before a pending email change is dropped. */
export const EMAIL_CHANGE_MAX_ATTEMPTS = 3;
/** Minutes the code of an email change stays valid. */
export const EMAIL_CHANGE_TTL_MINUTES = 30;

export const updateProfileBodySchema = z
  .object({
    firstName: personNameSchema,
    lastName: personNameSchema,
    email: loginIdSchema,
    phone: phoneSchema,
    language: languageSchema.nullable(),
    authMode: authModeSchema,
    /** The version the edit was based on; a stale one gets 409. */
    updatedAt: z.string(),
  })
  .refine((b) => b.authMode !== 'sms' || b.phone !== '', {
    message: 'validation.phoneRequiredForSms',
    path: ['phone'],
  });
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const languageBodySchema = z.object({ language: languageSchema });

export const changePasswordBodySchema = z
  .object({
    oldPassword: z.string().min(1, 'validation.required').max(256, 'validation.tooLong'),
    newPassword: operatorPasswordSchema,
    confirmPassword: z.string().min(1, 'validation.required').max(256, 'validation.tooLong'),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: 'validation.passwordMismatch',
    path: ['confirmPassword'],
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const deviceSchema = z.object({
  id,
  device: z.string(),
  ip: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
});

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), perPage: z.number().int() });

export const messageSchema = z.object({
  id,
  level: levelSchema,
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const auditLogSchema = z.object({
  id,
  at: z.string(),
  operatorId: id.nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's name (as it was when the entry was written, else as it is now); null when unknown. */
  targetName: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

export const announcementSchema = z.object({
  id,
  level: levelSchema,
  title: z.string(),
  body: z.string(),
  publishedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const versionsSchema = z.object({
  app: z.string(),
  server: z.string(),
  api: z.string(),
  node: z.string(),
  database: z.string(),
});

const optionFlags = {
  isArchive: z.boolean(),
  isMiniAsilla: z.boolean(),
  isLilz: z.boolean(),
  isHakaruAi: z.boolean(),
  isKanriroid: z.boolean(),
  isAutoGuide: z.boolean(),
};

/** Contract of spec section 3, for the operator's current building, plus every building's options. */
export const contractSchema = z.object({
  ...optionFlags,
  contractEndAt: z.string().nullable(),
  paymentCompleted: z.boolean(),
  maintenanceCompany: z.object({ id, name: z.string(), isOwner: z.boolean() }).nullable(),
  buildings: z.array(z.object({ buildingId: id, name: z.string(), ...optionFlags })),
});
export type Contract = z.infer<typeof contractSchema>;

export const locationBodySchema = z.object({ buildingId: id });

export const termDocumentSchema = z.object({
  id,
  kind: termKindSchema,
  version: z.string(),
  title: z.string(),
  body: z.string(),
  publishedAt: z.string(),
});
export type TermDocument = z.infer<typeof termDocumentSchema>;

/** A non-null entry means agreement is pending (spec section 3). */
export const termCheckSchema = z.object({
  TOS: termDocumentSchema.nullable(),
  PP: termDocumentSchema.nullable(),
  MC: termDocumentSchema.nullable(),
});
export type TermCheck = z.infer<typeof termCheckSchema>;

export const agreeTermsBodySchema = z.object({ documentIds: z.array(id).min(1).max(3) });

export const deliverySchema = z.object({
  id,
  channel: z.enum(['email', 'sms', 'slack', 'chatbot', 'webhook']),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(['stored', 'sent', 'failed']),
  error: z.string().nullable(),
  purpose: z.string(),
  createdAt: z.string(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const skywayKeySchema = z.object({ key: z.string() });

// Audit action codes and the editable terms, exported with the account's schemas.
export * from './audit-actions.ts';
export * from './terms.ts';
