import { z } from 'zod';

/**
 * Threshold rules and their log as API resources (issue 17; spec §3 "Threshold rule", §5, §9 levels;
 * docs/api-thresholds.md). Messages are i18n keys: `validation.*` (core texts) and
 * `thresholdValidation.*` (the thresholds section).
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');
const version = { updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) };

export const THRESHOLD_NAME_MAX = 64;
export const THRESHOLD_DESCRIPTION_MAX = 256;
/** Conditions one rule may hold. */
export const THRESHOLD_CONDITIONS_MAX = 10;
/** "Within range" (spec §5): every value of a condition lies in -1e9 ... 1e9. */
export const THRESHOLD_VALUE_LIMIT = 1_000_000_000;

/** Notification levels (spec §9): 0 information, 5 warning, 9 emergency. */
export const THRESHOLD_LEVELS = [0, 5, 9] as const;
export type ThresholdLevel = (typeof THRESHOLD_LEVELS)[number];
/** Status (spec §4: enabled or disabled): 1 enabled, 0 disabled. */
export const THRESHOLD_STATUSES = [0, 1] as const;

/**
 * Judgment conditions. Each condition says when a reading is a breach: `range` when the value is
 * outside min ... max (inclusive bounds are normal); the others when `value <op> target`
 * (gt >, gte >=, lt <, lte <=, eq =, ne !=).
 */
export const THRESHOLD_JUDGMENTS = ['range', 'gt', 'gte', 'lt', 'lte', 'eq', 'ne'] as const;
export type ThresholdJudgment = (typeof THRESHOLD_JUDGMENTS)[number];

/** A value of a condition: a finite number within ±THRESHOLD_VALUE_LIMIT, or null when not entered. */
const conditionValue = z
  .number({
    error: (iss) =>
      iss.input === undefined
        ? 'validation.required'
        : typeof iss.input === 'number' && !Number.isNaN(iss.input)
          ? 'thresholdValidation.finite'
          : 'validation.number',
  })
  .min(-THRESHOLD_VALUE_LIMIT, 'thresholdValidation.valueRange')
  .max(THRESHOLD_VALUE_LIMIT, 'thresholdValidation.valueRange')
  .nullable();

export const thresholdConditionSchema = z
  .object({
    judgment: z.enum(THRESHOLD_JUDGMENTS, { error: 'validation.required' }),
    /** The compared value (every judgment but `range`). */
    target: conditionValue,
    /** The normal range's bounds (`range`). */
    min: conditionValue,
    max: conditionValue,
  })
  .superRefine((c, ctx) => {
    const need = (path: 'target' | 'min' | 'max') => {
      if (c[path] === null) ctx.addIssue({ code: 'custom', path: [path], message: 'validation.required' });
    };
    if (c.judgment === 'range') {
      need('min');
      need('max');
      if (c.min !== null && c.max !== null && c.min > c.max)
        ctx.addIssue({ code: 'custom', path: ['max'], message: 'thresholdValidation.minMax' });
    } else need('target');
  });
export type ThresholdCondition = z.infer<typeof thresholdConditionSchema>;

const ruleFields = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(THRESHOLD_NAME_MAX, 'validation.max64'),
  description: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(THRESHOLD_DESCRIPTION_MAX, 'validation.max256')
    .default(''),
  level: z
    .number({ error: 'validation.required' })
    .refine((v) => (THRESHOLD_LEVELS as readonly number[]).includes(v), 'validation.invalid')
    .transform((v) => v as ThresholdLevel),
  status: z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }),
  conditions: z
    .array(thresholdConditionSchema, { error: 'thresholdValidation.conditionsRequired' })
    .min(1, 'thresholdValidation.conditionsRequired')
    .max(THRESHOLD_CONDITIONS_MAX, 'validation.tooMany'),
});

/** A new rule. `organizationId`: system administrators may name one; others get their own. */
export const thresholdRuleInputSchema = ruleFields.extend({ organizationId: id.optional() });
export type ThresholdRuleInput = z.infer<typeof thresholdRuleInputSchema>;
/** An edit: every field, and the version it was based on (the organization is fixed). */
export const updateThresholdRuleBodySchema = ruleFields.extend(version);
export type UpdateThresholdRuleBody = z.infer<typeof updateThresholdRuleBodySchema>;

export const thresholdRuleSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  name: z.string(),
  description: z.string(),
  level: z.number().int(),
  status: z.number().int(),
  conditions: z.array(thresholdConditionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ThresholdRule = z.infer<typeof thresholdRuleSchema>;

/** Who a breach was sent to: a notification target or webhook, by channel, id and name. */
export const thresholdNotifiedSchema = z.object({
  /** 'email', 'slack', 'chatbot', 'webhook', ... (the notification engine's channel). */
  channel: z.string(),
  targetId: z.number().int().nullable(),
  name: z.string(),
});
export type ThresholdNotified = z.infer<typeof thresholdNotifiedSchema>;

/** A log line: one evaluation that breached a rule. */
export const thresholdLogSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int().nullable(),
  robotId: z.number().int().nullable(),
  /** null once the rule is deleted; `ruleName` is its name at the time. */
  ruleId: z.number().int().nullable(),
  ruleName: z.string(),
  checkItemId: z.number().int().nullable(),
  checkItemName: z.string(),
  value: z.number(),
  condition: thresholdConditionSchema,
  level: z.number().int(),
  /** The photo the value was read from (`files.key`), and a signed URL of it for `<img src>`. */
  photoFileKey: z.string().nullable(),
  photoUrl: z.string().nullable(),
  reportId: z.number().int().nullable(),
  reportDetailId: z.number().int().nullable(),
  notified: z.array(thresholdNotifiedSchema),
  at: z.string(),
});
export type ThresholdLog = z.infer<typeof thresholdLogSchema>;

/**
 * The condition of `rule` that `value` breaches, the first in the rule's order, or null: none does,
 * the rule is disabled, or the value is not a finite number (nothing was read).
 */
export function evaluateThreshold(
  rule: { status: number; conditions: readonly ThresholdCondition[] },
  value: number,
): ThresholdCondition | null {
  if (rule.status !== 1 || !Number.isFinite(value)) return null;
  return rule.conditions.find((c) => conditionBreached(c, value)) ?? null;
}

/** Whether `value` breaches one condition (a condition missing its values never does). */
export function conditionBreached(c: ThresholdCondition, value: number): boolean {
  if (c.judgment === 'range') {
    if (c.min === null || c.max === null) return false;
    return value < c.min || value > c.max;
  }
  const t = c.target;
  if (t === null) return false;
  switch (c.judgment) {
    case 'gt':
      return value > t;
    case 'gte':
      return value >= t;
    case 'lt':
      return value < t;
    case 'lte':
      return value <= t;
    case 'eq':
      return value === t;
    case 'ne':
      return value !== t;
  }
}
