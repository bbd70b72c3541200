import { z } from 'zod';
import { ROBOT_MODEL_MAX } from '../robots.ts';
import { FLOW_LIMITS, commandDefinitionSchema, flowDefinitionSchema, type FlowDefinition } from './definition.ts';

/**
 * Flows and the command library as API resources (issue 13; docs/api-flows.md). Messages are i18n
 * keys: `validation.*` (core texts) and `flowValidation.*` (the flows section).
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');
const requiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, `validation.max${max}`);
/** An optional text: absent is empty. */
const optionalText = (max: number) =>
  z.string({ error: 'validation.invalid' }).trim().max(max, `validation.max${max}`).default('');
const version = { updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) };

// ---------------------------------------------------------------- codes

/** Command categories (spec section 9). */
export const COMMAND_CATEGORIES = [0, 100, 200, 300, 400, 500, 900] as const;
export type CommandCategory = (typeof COMMAND_CATEGORIES)[number];
export const commandCategorySchema = z
  .number({ error: 'validation.required' })
  .refine((v) => (COMMAND_CATEGORIES as readonly number[]).includes(v), 'validation.invalid')
  .transform((v) => v as CommandCategory);

/**
 * Command scopes: 0 publish (everyone who sees the owner reads it), 1 within organization (the
 * owner's administrators only), and the system administrators' 2 alpha and 3 development (system
 * administrators only). Spec section 9 names 0 and 1; §6 "alpha and development command scopes".
 */
export const CommandScope = { publish: 0, organization: 1, alpha: 2, development: 3 } as const;
export const COMMAND_SCOPES = [0, 1, 2, 3] as const;
export type CommandScopeCode = (typeof COMMAND_SCOPES)[number];
export const commandScopeSchema = z
  .number({ error: 'validation.required' })
  .refine((v) => (COMMAND_SCOPES as readonly number[]).includes(v), 'validation.invalid')
  .transform((v) => v as CommandScopeCode);
/** Scopes only system administrators may give. */
export const SYSTEM_ONLY_SCOPES: readonly number[] = [CommandScope.alpha, CommandScope.development];

/** Command status: 1 active (usable in flows), 0 disabled. */
export const COMMAND_STATUSES = [0, 1] as const;

export const COMMAND_NAME_MAX = 64;
export const COMMAND_DESCRIPTION_MAX = 500;
export const COMMAND_MODELS_MAX = 20;
export const FLOW_NAME_MAX = 24;
export const FLOW_DESCRIPTION_MAX = 500;
/** Flows one reorder may hold (the flows of one building and floor). */
export const FLOW_REORDER_MAX = 1000;

// ---------------------------------------------------------------- commands

/** A parameter a command takes: its name, type, preset (default) and, for numbers, its range. */
export const commandParameterSchema = z
  .object({
    name: z
      .string({ error: 'validation.required' })
      .min(1, 'validation.required')
      .max(FLOW_LIMITS.parameterName, 'validation.tooLong')
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'flowValidation.parameterName'),
    type: z.enum(['string', 'number', 'boolean'], { error: 'validation.required' }),
    preset: z
      .union([
        z.string().max(FLOW_LIMITS.parameterText, 'validation.tooLong'),
        z.number().refine(Number.isFinite, 'validation.number'),
        z.boolean(),
      ])
      .nullable(),
    min: z.number().refine(Number.isFinite, 'validation.number').optional(),
    max: z.number().refine(Number.isFinite, 'validation.number').optional(),
  })
  .superRefine((p, ctx) => {
    if (p.preset !== null && typeof p.preset !== p.type)
      ctx.addIssue({ code: 'custom', path: ['preset'], message: 'flowValidation.parameterType' });
    if (p.min !== undefined && p.max !== undefined && p.min > p.max)
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'validation.range' });
  });
export type CommandParameter = z.infer<typeof commandParameterSchema>;

const commandFields = z.object({
  name: requiredText(COMMAND_NAME_MAX),
  description: optionalText(COMMAND_DESCRIPTION_MAX),
  category: commandCategorySchema,
  scope: commandScopeSchema,
  /** null: a system command (system administrators only). Others get their own organization. */
  organizationId: id.nullable().optional(),
  /** Robot models that may use the command; empty: every model. */
  modelsAllowed: z
    .array(requiredText(ROBOT_MODEL_MAX))
    .max(COMMAND_MODELS_MAX, 'validation.tooLong')
    .refine((m) => new Set(m).size === m.length, 'validation.duplicate'),
  parameters: z
    .array(commandParameterSchema)
    .max(FLOW_LIMITS.commandParameters, 'validation.tooLong')
    .refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, 'validation.duplicate'),
  definition: commandDefinitionSchema,
  status: z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }),
});

export const commandInputSchema = commandFields;
export type CommandInput = z.infer<typeof commandInputSchema>;
export const updateCommandBodySchema = commandFields.extend(version);
export type UpdateCommandBody = z.infer<typeof updateCommandBodySchema>;

export const commandSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int().nullable(),
  name: z.string(),
  description: z.string(),
  category: z.number().int(),
  scope: z.number().int(),
  modelsAllowed: z.array(z.string()),
  parameters: z.array(commandParameterSchema),
  definition: z.custom<FlowDefinition>(),
  status: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Command = z.infer<typeof commandSchema>;

/** GET /commands/:id/usage: the flows that use a command. */
export const commandUsageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  buildingId: z.number().int(),
  buildingName: z.string(),
  floorId: z.number().int(),
});
export type CommandUsage = z.infer<typeof commandUsageSchema>;

// ---------------------------------------------------------------- flows

const flowFields = z.object({
  name: requiredText(FLOW_NAME_MAX),
  description: optionalText(FLOW_DESCRIPTION_MAX),
  buildingId: id,
  floorId: id,
  /** A flow group of the same building, or none. */
  flowGroupId: id.nullable(),
  enabled: z.boolean({ error: 'validation.required' }),
  definition: flowDefinitionSchema,
});

export const flowInputSchema = flowFields;
export type FlowInput = z.infer<typeof flowInputSchema>;
/** An edit: the fields of a create (the display order and enabled flag have their own operations). */
export const updateFlowBodySchema = flowFields.omit({ enabled: true }).extend(version);
export type UpdateFlowBody = z.infer<typeof updateFlowBodySchema>;

export const flowSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  floorId: z.number().int(),
  flowGroupId: z.number().int().nullable(),
  name: z.string(),
  description: z.string(),
  displayOrder: z.number().int(),
  enabled: z.boolean(),
  definition: z.custom<FlowDefinition>(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Flow = z.infer<typeof flowSchema>;

export const setFlowEnabledBodySchema = z.object({ enabled: z.boolean({ error: 'validation.required' }) });
export type SetFlowEnabledBody = z.infer<typeof setFlowEnabledBodySchema>;

/** The flows of one building and floor in their new order (every one of them, each once). */
export const reorderFlowsBodySchema = z.object({
  buildingId: id,
  floorId: id,
  ids: z
    .array(id)
    .max(FLOW_REORDER_MAX, 'validation.tooLong')
    .refine((ids) => new Set(ids).size === ids.length, 'validation.duplicate'),
});
export type ReorderFlowsBody = z.infer<typeof reorderFlowsBodySchema>;

/** `details[].code` of 403 FLOW_EDIT_RESTRICTED and 409 IN_USE of a command used by flows. */
export const FLOW_IN_USE_PATH = 'flows';
