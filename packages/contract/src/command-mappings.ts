import { z } from 'zod';
import { ROBOT_COMMANDS } from './robots.ts';
import { robotActionSchema, type RobotActionType } from './teleop.ts';

/**
 * Command mappings (spec §2 `/command-mapping/*`, §3 "Command list (mapping)", §5 "Command list",
 * §9 "Command modes 10 to 13 (common 110 to 113)"; issue 14; docs/api-command-mappings.md).
 *
 * A mapping ties the controls of the basic controller and the operator screen (an on-screen button,
 * a keyboard key, a game-controller button) to commands the robot can run in one command mode of a
 * building. Modes 10 to 13 are the four modes the operator switches between on the controller;
 * 110 to 113 are their "common" sets: the common set of mode N (100 + N) is the building-wide base
 * layer of that mode, and a mode's own mapping overrides it control by control (a key, a game
 * controller button or an on-screen label bound in both runs the mode's own command). A mode is used
 * by at most one mapping per building.
 *
 * The commands are those the operator screen can already run on a robot: a robot feature action
 * (`POST /robots/:id/actions`: speak, photo, recording, lights, gimbal, periscope) or an order
 * command (`POST /robots/:id/commands`: pause, resume or cancel the robot's order). Running a mapped
 * command goes through those operations, so the robot's capabilities, the controls lock and tenancy
 * are checked as for the operator screen's own buttons.
 *
 * Messages are i18n keys: `validation.*` (core texts) and `commandMappingValidation.*` (the command
 * mappings section).
 */
const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');

export const COMMAND_MAPPING_NAME_MAX = 64;
export const COMMAND_MAPPING_MEMO_MAX = 1000;
export const COMMAND_MAPPING_LABEL_MAX = 32;
/** Rows of a definition at most. */
export const COMMAND_MAPPING_ENTRIES_MAX = 32;
/** The definition's schema version (bumped when its shape changes). */
export const COMMAND_MAPPING_DEFINITION_VERSION = 1;

/** The operator's modes (spec §9). */
export const COMMAND_MODES = [10, 11, 12, 13] as const;
/** Their common sets (spec §9): 100 + the mode. */
export const COMMON_COMMAND_MODES = [110, 111, 112, 113] as const;
export const ALL_COMMAND_MODES = [...COMMAND_MODES, ...COMMON_COMMAND_MODES] as const;
export type OperatorCommandMode = (typeof COMMAND_MODES)[number];
export type CommandMode = (typeof ALL_COMMAND_MODES)[number];
export const commandModeSchema = z
  .number({ error: 'validation.required' })
  .refine((v) => (ALL_COMMAND_MODES as readonly number[]).includes(v), 'validation.invalid')
  .transform((v) => v as CommandMode);
export const operatorCommandModeSchema = z.coerce
  .number({ error: 'validation.required' })
  .refine((v) => (COMMAND_MODES as readonly number[]).includes(v), 'validation.invalid')
  .transform((v) => v as OperatorCommandMode);
/** The common set of an operator mode (10 -> 110). */
export const commonModeOf = (mode: OperatorCommandMode): CommandMode => (mode + 100) as CommandMode;
export const isCommonMode = (mode: number): boolean => mode >= 100;

/** Status (spec §4): 1 enabled, 0 disabled. A disabled mapping is offered to no controller. */
export const COMMAND_MAPPING_STATUSES = [0, 1] as const;
export type CommandMappingStatus = (typeof COMMAND_MAPPING_STATUSES)[number];

/** The robot feature actions a mapping may run (answering calls and audio stay on their own controls). */
export const MAPPABLE_ACTIONS = [
  'speak',
  'takePhoto',
  'startRecording',
  'stopRecording',
  'setRingLight',
  'setPatrolLamp',
  'gimbalJog',
  'setPeriscopeHeight',
] as const satisfies readonly RobotActionType[];
export type MappableAction = (typeof MAPPABLE_ACTIONS)[number];

/**
 * Keys the controllers already use: driving (W/A/S/D, arrows), stop (Space) and push-to-talk (M)
 * cannot be mapped.
 */
export const RESERVED_KEYS: readonly string[] = [
  'KeyW',
  'KeyA',
  'KeyS',
  'KeyD',
  'KeyM',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Space',
];
/** Mappable keys (`KeyboardEvent.code`): letters, digits and F1 to F12, except the reserved ones. */
export const MAPPABLE_KEYS: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((c) => `Key${c}`),
  ...'0123456789'.split('').map((d) => `Digit${d}`),
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
].filter((k) => !RESERVED_KEYS.includes(k));
/** Game controller buttons (standard mapping 0 to 16); 1 (B / circle) stops the robot and is reserved. */
export const GAMEPAD_BUTTON_MAX = 16;
export const RESERVED_GAMEPAD_BUTTONS: readonly number[] = [1];

/** A mapped command: a robot feature action or an order command. */
export const mappedCommandSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('action'),
    action: robotActionSchema.refine(
      (a) => (MAPPABLE_ACTIONS as readonly string[]).includes(a.type),
      'commandMappingValidation.command',
    ),
  }),
  z.object({ kind: z.literal('order'), command: z.enum(ROBOT_COMMANDS, { error: 'validation.required' }) }),
]);
export type MappedCommand = z.infer<typeof mappedCommandSchema>;

/** One row: a command and the controls that run it (at least one). */
export const commandMappingEntrySchema = z.object({
  /** The on-screen button's text and the name the operator sees in feedback. */
  label: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(COMMAND_MAPPING_LABEL_MAX, `validation.max${COMMAND_MAPPING_LABEL_MAX}`),
  /** Shown as a button on the controller's screen. */
  screen: z.boolean().default(true),
  /** A keyboard key (`KeyboardEvent.code`), or null. */
  key: z
    .string()
    .nullable()
    .default(null)
    .refine((k) => k === null || MAPPABLE_KEYS.includes(k), 'commandMappingValidation.key'),
  /** A game controller button (standard mapping), or null. */
  gamepadButton: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(0, 'validation.range')
    .max(GAMEPAD_BUTTON_MAX, 'validation.range')
    .refine((b) => !RESERVED_GAMEPAD_BUTTONS.includes(b), 'commandMappingValidation.gamepadButton')
    .nullable()
    .default(null),
  command: mappedCommandSchema,
});
export type CommandMappingEntry = z.infer<typeof commandMappingEntrySchema>;

/**
 * The rules across rows (paths relative to the definition): every row has a control; a key, a
 * game controller button or an on-screen label is bound once.
 */
export function commandMappingDefinitionIssues(entries: ReadonlyArray<CommandMappingEntry>): Array<{
  path: string;
  message: string;
}> {
  const out: Array<{ path: string; message: string }> = [];
  const keys = new Set<string>();
  const pads = new Set<number>();
  const labels = new Set<string>();
  entries.forEach((e, i) => {
    if (!e.screen && e.key === null && e.gamepadButton === null)
      out.push({ path: `entries.${i}.screen`, message: 'commandMappingValidation.noControl' });
    if (e.key !== null) {
      if (keys.has(e.key)) out.push({ path: `entries.${i}.key`, message: 'commandMappingValidation.duplicateKey' });
      keys.add(e.key);
    }
    if (e.gamepadButton !== null) {
      if (pads.has(e.gamepadButton))
        out.push({ path: `entries.${i}.gamepadButton`, message: 'commandMappingValidation.duplicateButton' });
      pads.add(e.gamepadButton);
    }
    if (e.screen) {
      if (labels.has(e.label))
        out.push({ path: `entries.${i}.label`, message: 'commandMappingValidation.duplicateLabel' });
      labels.add(e.label);
    }
  });
  return out;
}

/** The definition JSON (versioned schema). */
export const commandMappingDefinitionSchema = z
  .object({
    version: z.literal(COMMAND_MAPPING_DEFINITION_VERSION, { error: 'commandMappingValidation.version' }),
    entries: z
      .array(commandMappingEntrySchema, { error: 'validation.required' })
      .min(1, 'commandMappingValidation.noEntries')
      .max(COMMAND_MAPPING_ENTRIES_MAX, 'validation.tooLong'),
  })
  .superRefine((d, ctx) => {
    for (const i of commandMappingDefinitionIssues(d.entries))
      ctx.addIssue({
        code: 'custom',
        path: i.path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
        message: i.message,
      });
  });
export type CommandMappingDefinition = z.infer<typeof commandMappingDefinitionSchema>;

const commandMappingFields = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(COMMAND_MAPPING_NAME_MAX, `validation.max${COMMAND_MAPPING_NAME_MAX}`),
  buildingId: id,
  mode: commandModeSchema,
  memo: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(COMMAND_MAPPING_MEMO_MAX, 'validation.tooLong')
    .default(''),
  status: z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }).default(1),
  definition: commandMappingDefinitionSchema,
});

export const commandMappingInputSchema = commandMappingFields;
export type CommandMappingInput = z.input<typeof commandMappingInputSchema>;
export const updateCommandMappingBodySchema = commandMappingFields.extend({
  updatedAt: z.string({ error: 'validation.required' }).min(1).max(40),
});
export type UpdateCommandMappingBody = z.input<typeof updateCommandMappingBodySchema>;

export const commandMappingSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  buildingName: z.string(),
  name: z.string(),
  mode: z.number().int(),
  memo: z.string(),
  /** 1 when made, one more on every saved change. */
  revision: z.number().int(),
  status: z.union([z.literal(0), z.literal(1)]),
  definition: commandMappingDefinitionSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CommandMapping = z.infer<typeof commandMappingSchema>;

/**
 * GET /robots/:id/command-mapping?mode=N: what the robot's controllers offer in mode N: the enabled
 * common set of the mode (100 + N) overlaid by the enabled mapping of the mode, in that order, a
 * control bound by both going to the mode's own row.
 */
export const robotCommandMappingSchema = z.object({
  robotId: z.number().int(),
  buildingId: z.number().int(),
  mode: z.number().int(),
  /** The mappings the entries come from (the common set first). */
  mappings: z.array(z.object({ id: z.number().int(), name: z.string(), mode: z.number().int() })),
  entries: z.array(commandMappingEntrySchema),
});
export type RobotCommandMapping = z.infer<typeof robotCommandMappingSchema>;

/**
 * The rows a controller offers: the common rows first, each control (key, game controller button,
 * on-screen label) bound by the mode's own mapping taken away from them.
 */
export function overlayCommandMappings(
  common: ReadonlyArray<CommandMappingEntry>,
  own: ReadonlyArray<CommandMappingEntry>,
): CommandMappingEntry[] {
  const keys = new Set(own.flatMap((e) => (e.key === null ? [] : [e.key])));
  const pads = new Set(own.flatMap((e) => (e.gamepadButton === null ? [] : [e.gamepadButton])));
  const labels = new Set(own.flatMap((e) => (e.screen ? [e.label] : [])));
  const base = common
    .map((e) => ({
      ...e,
      key: e.key !== null && keys.has(e.key) ? null : e.key,
      gamepadButton: e.gamepadButton !== null && pads.has(e.gamepadButton) ? null : e.gamepadButton,
      screen: e.screen && !labels.has(e.label),
    }))
    .filter((e) => e.screen || e.key !== null || e.gamepadButton !== null);
  return [...base, ...own];
}
