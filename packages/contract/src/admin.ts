import { z } from 'zod';
import {
  floorTypeSchema,
  levelSchema,
  operatorTypeSchema,
  organizationTypeSchema,
  recordStatusSchema,
} from './codes.ts';
import { isValidIpRule } from './ip.ts';
import { prefectureInputSchema, timeZoneSchema } from './places.ts';
import { loginIdSchema, operatorPasswordSchema, personNameSchema, POSTAL_CODE_PATTERN } from './validation.ts';

/**
 * Data management (organizations, notification targets, operators, buildings, floors): request
 * bodies and responses. Messages are i18n keys under `validation.*`.
 */
const id = z.number().int();
const isoDate = z.string();

/** Optional free text: '' is stored as null. */
const optText = (max: number) => z.string().trim().max(max, `validation.max${max}`);
const requiredName = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, `validation.max${max}`);
export const postalCodeSchema = z
  .string()
  .trim()
  .refine((v) => v === '' || POSTAL_CODE_PATTERN.test(v), 'validation.postalCode');
/** The version an edit was based on (its `updatedAt`); a stale one gets 409 STALE_UPDATE. */
const version = z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40);

// ---------------------------------------------------------------- organizations

export const organizationInputSchema = z.object({
  name: requiredName(48),
  type: organizationTypeSchema,
  level: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(0, 'validation.range')
    .max(99, 'validation.range'),
  prefecture: prefectureInputSchema,
  city: optText(40),
  address: optText(120),
  postalCode: postalCodeSchema,
  status: recordStatusSchema,
  labOption: z.boolean(),
});
export type OrganizationInput = z.infer<typeof organizationInputSchema>;
export const updateOrganizationBodySchema = organizationInputSchema.extend({ updatedAt: version });
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBodySchema>;

// ---------------------------------------------------------------- notification targets

/** 0 email, 1 Slack, 2 SMS (disabled), 3 phone (disabled), 6 chat bot (spec section 9). */
export const notifTargetTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(6)]);
export type NotifTargetType = z.infer<typeof notifTargetTypeSchema>;
export const DISABLED_NOTIF_TARGET_TYPES: readonly NotifTargetType[] = [2, 3];
/** The language a notification target's messages are written in. */
export const NOTIF_TARGET_LANGUAGES = ['ja', 'en'] as const;
export const notifTargetLanguageSchema = z.enum(NOTIF_TARGET_LANGUAGES, { error: 'validation.invalid' });
export type NotifTargetLanguage = z.infer<typeof notifTargetLanguageSchema>;
export const SLACK_WEBHOOK_PATTERN = /^https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+$/;

const notifTargetFields = z.object({
  type: notifTargetTypeSchema,
  level: levelSchema,
  /** null: every building of the organization. */
  buildingId: id.nullable(),
  room: optText(40),
  /** Email address (type 0), Slack incoming-webhook URL (type 1), bot endpoint URL (type 6). */
  address: z.string().trim().max(500, 'validation.tooLong'),
  botLoginId: optText(254),
  /** Write-only. Omitted or undefined on update: keep the stored one; '' clears it. */
  botPassword: z.string().max(200, 'validation.tooLong').optional(),
  spaceId: optText(100),
  /**
   * The language of its messages. Omitted on create: the language of the organization's operator
   * whose login (or email) is the address, else `ja`; omitted on update: the stored one is kept.
   */
  language: notifTargetLanguageSchema.optional(),
});

function checkNotifTarget(
  v: { type: NotifTargetType; address?: string | undefined; botLoginId: string; spaceId: string },
  ctx: z.RefinementCtx,
) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (DISABLED_NOTIF_TARGET_TYPES.includes(v.type)) issue('type', 'validation.typeDisabled');
  if (v.type === 6) {
    if (v.botLoginId === '') issue('botLoginId', 'validation.required');
    if (v.spaceId === '') issue('spaceId', 'validation.required');
  }
  // Omitted (update only): the stored address is kept; the server checks the type did not change.
  if (v.address === undefined) return;
  if (v.address === '') return issue('address', 'validation.required');
  if (v.type === 0 && !z.email().safeParse(v.address).success) issue('address', 'validation.email');
  if (v.type === 1 && !SLACK_WEBHOOK_PATTERN.test(v.address)) issue('address', 'validation.slackWebhook');
  if (v.type === 6 && !/^https:\/\/\S+$/.test(v.address)) issue('address', 'validation.url');
}

export const notifTargetInputSchema = notifTargetFields.superRefine(checkNotifTarget);
export type NotifTargetInput = z.infer<typeof notifTargetInputSchema>;
/**
 * Update: as create, plus the version; `address` may be omitted to keep a stored webhook or bot URL
 * (they are secrets and are only shown masked), as long as the type stays the same.
 */
export const updateNotifTargetBodySchema = notifTargetFields
  .extend({ address: notifTargetFields.shape.address.optional(), updatedAt: version })
  .superRefine(checkNotifTarget);
export type UpdateNotifTargetBody = z.infer<typeof updateNotifTargetBodySchema>;

export const notifTargetSchema = z.object({
  id,
  organizationId: id,
  type: notifTargetTypeSchema,
  level: levelSchema,
  buildingId: id.nullable(),
  room: z.string(),
  /** Email addresses in full; webhook and bot URLs masked (they are secrets). */
  address: z.string(),
  botLoginId: z.string(),
  /** Masked (`••••••abcd`) or null when none is stored. */
  botPassword: z.string().nullable(),
  spaceId: z.string(),
  language: notifTargetLanguageSchema,
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type NotifTarget = z.infer<typeof notifTargetSchema>;

export const testNotificationResultSchema = z.object({
  deliveryId: id,
  status: z.enum(['stored', 'sent', 'failed']),
  error: z.string().nullable(),
});

// ---------------------------------------------------------------- operators

const operatorFields = {
  loginId: loginIdSchema,
  firstName: personNameSchema,
  lastName: personNameSchema,
  type: operatorTypeSchema,
  organizationId: id,
  buildingId: z.number({ error: 'validation.required' }).int(),
  /** Only for general operators (type 0). */
  flowEditRestricted: z.boolean(),
  /**
   * May not export reports (spec section 6; only for general operators, type 0: administrators always
   * may). Optional: a create without it is unrestricted, an update without it keeps the stored value.
   */
  exportRestricted: z.boolean({ error: 'validation.invalid' }).optional(),
};
const flowEditOnlyForGeneral = (
  v: { type: number; flowEditRestricted: boolean; exportRestricted?: boolean | undefined },
  ctx: z.RefinementCtx,
) => {
  if (v.flowEditRestricted && v.type !== 0) {
    ctx.addIssue({ code: 'custom', path: ['flowEditRestricted'], message: 'validation.flowEditOnlyGeneral' });
  }
  if (v.exportRestricted && v.type !== 0) {
    ctx.addIssue({ code: 'custom', path: ['exportRestricted'], message: 'validation.exportOnlyGeneral' });
  }
};
export const createOperatorBodySchema = z
  .object({ ...operatorFields, password: operatorPasswordSchema })
  .superRefine(flowEditOnlyForGeneral);
export type CreateOperatorBody = z.infer<typeof createOperatorBodySchema>;
export const updateOperatorBodySchema = z
  .object({ ...operatorFields, password: operatorPasswordSchema.optional(), updatedAt: version })
  .superRefine(flowEditOnlyForGeneral);
export type UpdateOperatorBody = z.infer<typeof updateOperatorBodySchema>;

export const operatorSchema = z.object({
  id,
  loginId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: operatorTypeSchema,
  organizationId: id,
  organizationName: z.string().optional(),
  buildingId: id.nullable(),
  buildingName: z.string().nullable().optional(),
  flowEditRestricted: z.boolean(),
  /** May not export reports (general operators only). */
  exportRestricted: z.boolean(),
  status: recordStatusSchema,
  authMode: z.enum(['none', 'email', 'sms']),
  lockedUntil: isoDate.nullable(),
  mustChangePassword: z.boolean(),
  lastLoginAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorListSchema = z.array(operatorSchema);

// ---------------------------------------------------------------- buildings

export const buildingInputSchema = z.object({
  name: requiredName(40),
  prefecture: prefectureInputSchema,
  city: optText(40),
  address: optText(120),
  postalCode: postalCodeSchema,
  latitude: z
    .number({ error: 'validation.number' })
    .min(-90, 'validation.latitude')
    .max(90, 'validation.latitude')
    .nullable(),
  longitude: z
    .number({ error: 'validation.number' })
    .min(-180, 'validation.longitude')
    .max(180, 'validation.longitude')
    .nullable(),
  organizationId: id,
  status: recordStatusSchema,
  /** IANA zone; a new building without one is in Asia/Tokyo, an edit without one keeps its zone. */
  timeZone: timeZoneSchema.optional(),
});
export type BuildingInput = z.infer<typeof buildingInputSchema>;
export const updateBuildingBodySchema = buildingInputSchema.extend({ updatedAt: version });

/** Robot groups and flow groups: names max 48 (they are always linked to a building). */
export const groupInputSchema = z.object({ buildingId: id, name: requiredName(48) });
export const updateGroupBodySchema = z.object({ name: requiredName(48), updatedAt: version });
export const groupSchema = z.object({
  id,
  buildingId: id,
  name: z.string(),
  sortOrder: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Group = z.infer<typeof groupSchema>;
export const reorderBodySchema = z.object({ ids: z.array(id).min(1).max(500) });

/** Remote voice languages of spec section 9. */
export const voiceLanguageSchema = z.enum(['auto', 'ja', 'en', 'de', 'fr', 'it', 'es', 'zh', 'ko']);
export const speechTextInputSchema = z.object({
  language: voiceLanguageSchema,
  text: z.string().trim().min(1, { error: 'validation.required', abort: true }).max(500, 'validation.max500'),
});
/** An edit names the version it was based on (409 STALE_UPDATE when someone saved in between). */
export const updateSpeechTextBodySchema = speechTextInputSchema.extend({ updatedAt: version });
export const speechTextSchema = z.object({
  id,
  buildingId: id,
  language: voiceLanguageSchema,
  text: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type SpeechText = z.infer<typeof speechTextSchema>;

export const ipRuleInputSchema = z.object({
  address: z
    .string()
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(64, { error: 'validation.ipAddress', abort: true })
    .refine(isValidIpRule, 'validation.ipAddress'),
  description: optText(200),
});
export const ipRuleSchema = z.object({
  id,
  buildingId: id,
  address: z.string(),
  description: z.string(),
  createdAt: isoDate,
});
export type IpRule = z.infer<typeof ipRuleSchema>;
/** The building's IP restriction, with whether the caller's own address is on the list (to warn). */
export const ipRestrictionSchema = z.object({
  enabled: z.boolean(),
  rules: z.array(ipRuleSchema),
  clientIp: z.string(),
  clientIpAllowed: z.boolean(),
});
export type IpRestriction = z.infer<typeof ipRestrictionSchema>;
export const ipRestrictionBodySchema = z.object({ enabled: z.boolean() });

/** System links; tokens are write-only: omitted keeps the stored one, '' clears it. */
export const buildingLinksBodySchema = z.object({
  tSpiderUrl: z
    .string()
    .trim()
    .max(500, 'validation.tooLong')
    .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), 'validation.url'),
  hakaruAiLoginId: optText(254),
  hakaruAiPassword: z.string().max(200, 'validation.tooLong').optional(),
  lilzToken: z.string().max(2000, 'validation.tooLong').optional(),
  kanriroidToken: z.string().max(2000, 'validation.tooLong').optional(),
});
export const buildingLinksSchema = z.object({
  tSpiderUrl: z.string(),
  hakaruAiLoginId: z.string(),
  /** Masked, or null when none is stored. */
  hakaruAiPassword: z.string().nullable(),
  lilzToken: z.string().nullable(),
  kanriroidToken: z.string().nullable(),
  updatedAt: isoDate.nullable(),
});
export type BuildingLinks = z.infer<typeof buildingLinksSchema>;

// ---------------------------------------------------------------- floors

export const floorInputSchema = z.object({
  name: requiredName(40),
  type: floorTypeSchema,
  /** 1F=1, B1=0, B2=-1. */
  index: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(-20, 'validation.range')
    .max(200, 'validation.range'),
  /** Map metadata for the maps capability: metres per pixel and the pixel (0,0) origin in metres. */
  resolution: z
    .number({ error: 'validation.number' })
    .positive('validation.range')
    .max(10, 'validation.range')
    .nullable(),
  originX: z
    .number({ error: 'validation.number' })
    .min(-100000, 'validation.range')
    .max(100000, 'validation.range')
    .nullable(),
  originY: z
    .number({ error: 'validation.number' })
    .min(-100000, 'validation.range')
    .max(100000, 'validation.range')
    .nullable(),
});
export type FloorInput = z.infer<typeof floorInputSchema>;
export const updateFloorBodySchema = floorInputSchema.extend({ updatedAt: version });

export const floorDetailSchema = z.object({
  id,
  name: z.string(),
  buildingId: id,
  organizationId: id,
  type: floorTypeSchema,
  index: z.number().int(),
  /** URL of the map image, or null. */
  img: z.string().nullable(),
  imgWidth: z.number().int().nullable(),
  imgHeight: z.number().int().nullable(),
  ugomap: z.string().nullable(),
  resolution: z.number().nullable(),
  originX: z.number().nullable(),
  originY: z.number().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type FloorDetail = z.infer<typeof floorDetailSchema>;
export const MAP_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const MAP_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

// ---------------------------------------------------------------- audit log

export const auditLogEntrySchema = z.object({
  id,
  at: isoDate,
  operatorId: id.nullable(),
  operatorName: z.string().nullable(),
  organizationId: id.nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's name (as it was when the entry was written, else as it is now); null when unknown. */
  targetName: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;
