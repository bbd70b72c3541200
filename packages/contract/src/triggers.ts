import { z } from 'zod';

/**
 * Triggers (issue 17; spec §9 "Trigger event types" and "Trigger targets"; docs/api-triggers.md):
 * per building, an event of the notification engine that matches a trigger's conditions carries out
 * the trigger's target action once (a flow run, a notification, a report entry, a web API call).
 * Messages are i18n keys: `validation.*` (core texts) and `triggerValidation.*`.
 */
const id = z.number({ error: 'validation.required' }).int('validation.integer').min(1, 'validation.notFound');
const optionalId = id.nullable().optional();

export const TRIGGER_NAME_MAX = 64;
export const TRIGGER_MESSAGE_MAX = 512;
/** Notification targets one trigger may notify. */
export const TRIGGER_TARGET_IDS_MAX = 20;

/** Event types (spec §9): 0 schedule, 1 robot status, 2 data threshold, 10 calendar, 11 chat, 12 teams. */
export const TRIGGER_EVENT_TYPES = [0, 1, 2, 10, 11, 12] as const;
export type TriggerEventType = (typeof TRIGGER_EVENT_TYPES)[number];
/** The event types the product has an integration for; 10, 11 and 12 are refused (not available yet). */
export const TRIGGER_AVAILABLE_EVENT_TYPES: readonly TriggerEventType[] = [0, 1, 2];
/** Target types (spec §9): 0 flow, 1 notification, 2 report, 3 web API. */
export const TRIGGER_TARGET_TYPES = [0, 1, 2, 3] as const;
export type TriggerTargetType = (typeof TRIGGER_TARGET_TYPES)[number];
/** 0 disabled, 1 enabled. */
export const TRIGGER_STATUSES = [0, 1] as const;

/** Robot statuses a robot-status trigger (event type 1) reacts to: notification engine event kinds. */
export const TRIGGER_ROBOT_STATUSES = ['emergencyStop', 'lowBattery', 'hardwareError', 'robotOffline'] as const;
export type TriggerRobotStatus = (typeof TRIGGER_ROBOT_STATUSES)[number];

/** Which robot runs a flow target: the event's robot, a named robot, another idle online robot of the building. */
export const TRIGGER_ROBOT_CHOICES = ['eventRobot', 'robot', 'otherIdle'] as const;
export type TriggerRobotChoice = (typeof TRIGGER_ROBOT_CHOICES)[number];

/** Notification levels (spec §9). */
export const TRIGGER_LEVELS = [0, 5, 9] as const;
const level = z.union([z.literal(0), z.literal(5), z.literal(9)], { error: 'validation.invalid' });

/** The version of the conditions and target JSON schemas. */
export const TRIGGER_SCHEMA_VERSION = 1;

/**
 * Conditions (version 1), per event type: 1 robot status: `robotStatuses` (at least one), optionally
 * one robot or one robot group of the building; 2 data threshold: optionally a threshold rule and/or
 * a check item, and a minimum level; 0 schedule (a schedule failure): optionally one schedule.
 * Fields of other event types are null.
 */
export const triggerConditionsSchema = z.object({
  version: z.literal(TRIGGER_SCHEMA_VERSION, { error: 'validation.invalid' }),
  robotStatuses: z
    .array(z.enum(TRIGGER_ROBOT_STATUSES, { error: 'validation.invalid' }))
    .max(4)
    .default([]),
  robotId: optionalId,
  robotGroupId: optionalId,
  ruleId: optionalId,
  checkItemId: optionalId,
  minLevel: level.nullable().optional(),
  scheduleId: optionalId,
});
export type TriggerConditions = z.infer<typeof triggerConditionsSchema>;

/**
 * Target settings (version 1), per target type: 0 flow: `flowId` and `robotChoice` (`robot`: with
 * `robotId`); 1 notification: `targetIds` (notification targets of the building or organization),
 * `level`, optional `message`; 2 report: nothing (a report entry describing the event); 3 web API:
 * `webhookId` (an enabled system webhook).
 */
export const triggerTargetSchema = z.object({
  version: z.literal(TRIGGER_SCHEMA_VERSION, { error: 'validation.invalid' }),
  flowId: optionalId,
  robotChoice: z.enum(TRIGGER_ROBOT_CHOICES, { error: 'validation.invalid' }).nullable().optional(),
  robotId: optionalId,
  targetIds: z.array(id).max(TRIGGER_TARGET_IDS_MAX, 'validation.tooMany').default([]),
  level: level.nullable().optional(),
  message: z.string({ error: 'validation.invalid' }).trim().max(TRIGGER_MESSAGE_MAX, 'validation.max512').default(''),
  webhookId: optionalId,
});
export type TriggerTarget = z.infer<typeof triggerTargetSchema>;

const triggerFields = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(TRIGGER_NAME_MAX, 'validation.max64'),
  status: z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }),
  eventType: z
    .number({ error: 'validation.required' })
    .refine((v) => (TRIGGER_EVENT_TYPES as readonly number[]).includes(v), 'validation.invalid')
    .transform((v) => v as TriggerEventType),
  conditions: triggerConditionsSchema,
  targetType: z
    .number({ error: 'validation.required' })
    .refine((v) => (TRIGGER_TARGET_TYPES as readonly number[]).includes(v), 'validation.invalid')
    .transform((v) => v as TriggerTargetType),
  target: triggerTargetSchema,
});
type TriggerFields = z.infer<typeof triggerFields>;

/** The shape rules of one trigger (the server checks the ids against the building after these). */
function checkTrigger(v: TriggerFields, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!TRIGGER_AVAILABLE_EVENT_TYPES.includes(v.eventType)) issue(['eventType'], 'triggerValidation.notAvailable');
  if (v.eventType === 1 && v.conditions.robotStatuses.length === 0)
    issue(['conditions', 'robotStatuses'], 'validation.required');
  if (v.eventType === 1 && v.conditions.robotId && v.conditions.robotGroupId)
    issue(['conditions', 'robotGroupId'], 'triggerValidation.robotOrGroup');
  const t = v.target;
  if (v.targetType === 0) {
    if (!t.flowId) issue(['target', 'flowId'], 'validation.required');
    if (!t.robotChoice) issue(['target', 'robotChoice'], 'validation.required');
    else if (t.robotChoice === 'robot' && !t.robotId) issue(['target', 'robotId'], 'validation.required');
  }
  if (v.targetType === 1) {
    if (t.targetIds.length === 0) issue(['target', 'targetIds'], 'validation.required');
    if (t.level === null || t.level === undefined) issue(['target', 'level'], 'validation.required');
  }
  if (v.targetType === 3 && !t.webhookId) issue(['target', 'webhookId'], 'validation.required');
}

/** A new trigger of a building. */
export const triggerInputSchema = triggerFields.extend({ buildingId: id }).superRefine(checkTrigger);
export type TriggerInput = z.infer<typeof triggerInputSchema>;

/** An edit: every field but the building, and the version it was based on. */
export const updateTriggerBodySchema = triggerFields
  .extend({ updatedAt: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40) })
  .superRefine(checkTrigger);
export type UpdateTriggerBody = z.infer<typeof updateTriggerBodySchema>;

export const triggerSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  name: z.string(),
  status: z.number().int(),
  eventType: z.number().int(),
  conditions: triggerConditionsSchema,
  targetType: z.number().int(),
  target: triggerTargetSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Trigger = z.infer<typeof triggerSchema>;

/** A firing's state: pending (to be carried out by the worker), done, failed. */
export const TRIGGER_FIRING_STATUSES = ['pending', 'done', 'failed'] as const;

/** One firing of a trigger by one event (the trigger log). */
export const triggerFiringSchema = z.object({
  id: z.number().int(),
  triggerId: z.number().int().nullable(),
  triggerName: z.string(),
  buildingId: z.number().int(),
  /** The notification engine's event, and its kind (`emergencyStop`, `thresholdBreach`, ...). */
  eventId: z.number().int(),
  eventKind: z.string(),
  robotId: z.number().int().nullable(),
  targetType: z.number().int(),
  status: z.enum(TRIGGER_FIRING_STATUSES),
  attempts: z.number().int(),
  /** Why it failed (English, for the log), or null. */
  error: z.string().nullable(),
  /** What the action made: the flow run (and its robot), the report, the notification event, the webhook delivery. */
  flowRunId: z.number().int().nullable(),
  runRobotId: z.number().int().nullable(),
  reportId: z.number().int().nullable(),
  notificationEventId: z.number().int().nullable(),
  webhookDeliveryId: z.number().int().nullable(),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
});
export type TriggerFiring = z.infer<typeof triggerFiringSchema>;
