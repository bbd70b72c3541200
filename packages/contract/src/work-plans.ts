import { z } from 'zod';
import { leafStepSchema, stepIdSchema, stepShapeIssues, type FlowStep, type StepOf } from './flows/definition.ts';

/**
 * Work plans (issue 14; docs/api-work-plans.md): step lists the operator walks through on the
 * operator screen, for work that cannot be automated (pressing an elevator button with the arm,
 * passing a door, a check by eye). The definition is versioned JSON shared by the editor, the
 * server and the operator screen: `{ version: 1, steps }`. A step has a type (move, press a button
 * with the right or left arm, a manual check), one main action, auxiliary actions (speech, photo,
 * lights, pose: the flow editor's blocks), a pose before and a wait after.
 *
 * Templates hold a definition to start from. A template's move steps may leave the waypoint open
 * (`waypointId: null`); a work plan's may not (it is bound to a building and floor).
 * Messages are i18n keys: `validation.*` (core texts) and `workPlanValidation.*`.
 */

export const WORK_PLAN_DEFINITION_VERSION = 1;
export const WORK_PLAN_LIMITS = {
  steps: 100,
  auxiliary: 10,
  title: 64,
  target: 64,
  instruction: 500,
  waitSeconds: 3600,
} as const;
export const WORK_PLAN_NAME_MAX = 64;
export const WORK_PLAN_DESCRIPTION_MAX = 500;

/** Work plan type: 0 elevator operation, 1 general purpose (spec §3). */
export const WORK_PLAN_TYPES = [0, 1] as const;
export type WorkPlanType = (typeof WORK_PLAN_TYPES)[number];
/** Icons a work plan may show (the web draws each). */
export const WORK_PLAN_ICONS = ['elevator', 'door', 'meter', 'button', 'check'] as const;
export type WorkPlanIcon = (typeof WORK_PLAN_ICONS)[number];
/** Step types: move (to a waypoint or a pose), press a button with the right or left arm, a manual check. */
export const WORK_PLAN_STEP_TYPES = ['move', 'pressRight', 'pressLeft', 'manual'] as const;
export type WorkPlanStepType = (typeof WORK_PLAN_STEP_TYPES)[number];
/** Auxiliary action kinds: the flow editor's speech, photo, lights and pose blocks. */
export const WORK_PLAN_AUX_KINDS = ['speak', 'takePhoto', 'lights', 'pose'] as const;

const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.notFound');
const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, { error: 'validation.tooLong' });
const requiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, `validation.max${max}`);
const optionalText = (max: number) =>
  z.string({ error: 'validation.invalid' }).trim().max(max, `validation.max${max}`).default('');
const version = { updatedAt: z.string({ error: 'validation.required' }).min(1).max(40) };

const poseSchema = leafStepSchema('pose');
const auxiliarySchema = z.discriminatedUnion(
  'kind',
  [leafStepSchema('speak'), leafStepSchema('takePhoto'), leafStepSchema('lights'), poseSchema],
  { error: 'workPlanValidation.auxiliaryKind' },
);
export type WorkPlanAuxiliary = StepOf<'speak'> | StepOf<'takePhoto'> | StepOf<'lights'> | StepOf<'pose'>;

/** Main actions: where a move goes, which button an arm presses, what the operator checks. */
const mainSchema = z.discriminatedUnion(
  'kind',
  [
    /** Drive to a waypoint of the work plan's floor (null: chosen when a plan is made from the template). */
    z.object({ kind: z.literal('moveToWaypoint'), waypointId: id.nullable() }),
    /** Move the gimbal, periscope or arm to a posture (the flow editor's pose block). */
    poseSchema,
    /** Press a button with the step's arm; `target` names it (e.g. "elevator call up"). */
    z.object({ kind: z.literal('pressButton'), target: text(WORK_PLAN_LIMITS.target) }),
    /** The operator checks something by eye or by hand. */
    z.object({ kind: z.literal('manualCheck'), instruction: text(WORK_PLAN_LIMITS.instruction) }),
  ],
  { error: 'workPlanValidation.mainKind' },
);
export type WorkPlanMain = z.infer<typeof mainSchema>;

/** The main action kinds each step type allows. */
export const MAIN_KINDS_OF: Record<WorkPlanStepType, readonly WorkPlanMain['kind'][]> = {
  move: ['moveToWaypoint', 'pose'],
  pressRight: ['pressButton'],
  pressLeft: ['pressButton'],
  manual: ['manualCheck'],
};

export const workPlanStepSchema = z.object({
  id: stepIdSchema,
  title: text(WORK_PLAN_LIMITS.title),
  type: z.enum(WORK_PLAN_STEP_TYPES, { error: 'validation.required' }),
  main: mainSchema,
  auxiliary: z.array(auxiliarySchema).max(WORK_PLAN_LIMITS.auxiliary, 'validation.tooLong'),
  /** Before the main action: a posture to take (or none). */
  before: z.object({ pose: poseSchema.nullable() }),
  /** After the main action: seconds to wait before the next step. */
  after: z.object({
    waitSeconds: z
      .number({ error: 'validation.number' })
      .int('validation.integer')
      .min(0, 'validation.range')
      .max(WORK_PLAN_LIMITS.waitSeconds, 'validation.range'),
  }),
});
export type WorkPlanStep = z.infer<typeof workPlanStepSchema>;

/** A work plan's (or template's) definition, version 1. */
export const workPlanDefinitionSchema = z
  .object(
    {
      version: z.literal(WORK_PLAN_DEFINITION_VERSION, { error: 'workPlanValidation.version' }),
      steps: z.array(workPlanStepSchema).max(WORK_PLAN_LIMITS.steps, 'workPlanValidation.tooManySteps'),
    },
    { error: 'validation.required' },
  )
  .superRefine((def, ctx) => {
    const seen = new Set<string>();
    def.steps.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: 'flowValidation.duplicateStepId' });
      seen.add(s.id);
      if (!MAIN_KINDS_OF[s.type].includes(s.main.kind))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'main', 'kind'], message: 'workPlanValidation.mainForType' });
      const blocks: Array<{ at: (string | number)[]; step: FlowStep }> = [
        { at: ['main'], step: s.main as FlowStep },
        ...s.auxiliary.map((a, j) => ({ at: ['auxiliary', j], step: a as FlowStep })),
        ...(s.before.pose ? [{ at: ['before', 'pose'], step: s.before.pose as FlowStep }] : []),
      ];
      for (const b of blocks)
        for (const issue of stepShapeIssues(b.step))
          ctx.addIssue({ code: 'custom', path: ['steps', i, ...b.at, issue.field], message: issue.message });
    });
  });
export type WorkPlanDefinition = { version: typeof WORK_PLAN_DEFINITION_VERSION; steps: WorkPlanStep[] };
export const emptyWorkPlanDefinition = (): WorkPlanDefinition => ({ version: WORK_PLAN_DEFINITION_VERSION, steps: [] });

/** One problem of a definition against the building: `path` into it, `message` an i18n key. */
export interface WorkPlanIssue {
  path: string;
  message: string;
}

/** What a work plan's definition may name: its floor's waypoints, the building's speech texts and poses. */
export interface WorkPlanRefs {
  waypointIds: ReadonlySet<number>;
  speechTextIds: ReadonlySet<number>;
  poseDefIds: ReadonlySet<number>;
}

/**
 * The rules of a work plan's definition that need its building: every move names a waypoint of the
 * floor's map; speech texts and pose definitions are the building's. A template (no refs) only
 * gets the schema's rules.
 */
export function validateWorkPlanDefinition(def: WorkPlanDefinition, refs: WorkPlanRefs): WorkPlanIssue[] {
  const issues: WorkPlanIssue[] = [];
  const pose = (p: StepOf<'pose'> | null, at: string) => {
    if (p?.poseDefId !== undefined && !refs.poseDefIds.has(p.poseDefId))
      issues.push({ path: `${at}.poseDefId`, message: 'flowValidation.poseDefBuilding' });
  };
  def.steps.forEach((s, i) => {
    const at = `steps.${i}`;
    if (s.main.kind === 'moveToWaypoint') {
      if (s.main.waypointId === null)
        issues.push({ path: `${at}.main.waypointId`, message: 'workPlanValidation.waypointRequired' });
      else if (!refs.waypointIds.has(s.main.waypointId))
        issues.push({ path: `${at}.main.waypointId`, message: 'workPlanValidation.waypointFloor' });
    }
    if (s.main.kind === 'pose') pose(s.main, `${at}.main`);
    pose(s.before.pose, `${at}.before.pose`);
    s.auxiliary.forEach((a, j) => {
      if (a.kind === 'pose') pose(a, `${at}.auxiliary.${j}`);
      if (a.kind === 'speak' && a.speechTextId !== undefined && !refs.speechTextIds.has(a.speechTextId))
        issues.push({ path: `${at}.auxiliary.${j}.speechTextId`, message: 'flowValidation.speechTextBuilding' });
    });
  });
  return issues;
}

// ---------------------------------------------------------------- resources

const typeSchema = z
  .number({ error: 'validation.required' })
  .refine((v) => (WORK_PLAN_TYPES as readonly number[]).includes(v), 'validation.invalid')
  .transform((v) => v as WorkPlanType);

const workPlanFields = z.object({
  name: requiredText(WORK_PLAN_NAME_MAX),
  description: optionalText(WORK_PLAN_DESCRIPTION_MAX),
  buildingId: id,
  floorId: id,
  icon: z.enum(WORK_PLAN_ICONS, { error: 'validation.required' }),
  type: typeSchema,
  status: z.union([z.literal(0), z.literal(1)], { error: 'validation.required' }),
  definition: workPlanDefinitionSchema,
  /** The template it was made from (kept for reference), or none. */
  templateId: id.nullable().default(null),
});
export const workPlanInputSchema = workPlanFields;
export type WorkPlanInput = z.input<typeof workPlanInputSchema>;
export const updateWorkPlanBodySchema = workPlanFields.extend(version);
export type UpdateWorkPlanBody = z.input<typeof updateWorkPlanBodySchema>;

export const workPlanSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int(),
  buildingId: z.number().int(),
  buildingName: z.string(),
  floorId: z.number().int(),
  floorName: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  type: z.number().int(),
  status: z.number().int(),
  definition: z.custom<WorkPlanDefinition>(),
  templateId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkPlan = z.infer<typeof workPlanSchema>;

const templateFields = z.object({
  name: requiredText(WORK_PLAN_NAME_MAX),
  description: optionalText(WORK_PLAN_DESCRIPTION_MAX),
  type: typeSchema,
  definition: workPlanDefinitionSchema,
  /** null: a template every organization sees (system administrators only). Others get their own. */
  organizationId: id.nullable().optional(),
});
export const workPlanTemplateInputSchema = templateFields;
export type WorkPlanTemplateInput = z.input<typeof workPlanTemplateInputSchema>;
export const updateWorkPlanTemplateBodySchema = templateFields.extend(version);
export type UpdateWorkPlanTemplateBody = z.input<typeof updateWorkPlanTemplateBodySchema>;

export const workPlanTemplateSchema = z.object({
  id: z.number().int(),
  organizationId: z.number().int().nullable(),
  /** A template the portal ships (its name and step titles are shown in the reader's language). */
  builtinKey: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  type: z.number().int(),
  definition: z.custom<WorkPlanDefinition>(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkPlanTemplate = z.infer<typeof workPlanTemplateSchema>;

// ---------------------------------------------------------------- shipped templates

const noAux = { auxiliary: [], before: { pose: null }, after: { waitSeconds: 0 } };
const armHome = (stepId: string): StepOf<'pose'> => ({ kind: 'pose', id: stepId, target: 'gimbal', pan: 0, tilt: -20 });

/** The templates the portal ships (migration 037 stores them; the web names them in ja and en by key). */
export const BUILTIN_WORK_PLAN_TEMPLATES: ReadonlyArray<{
  key: string;
  name: string;
  description: string;
  type: WorkPlanType;
  definition: WorkPlanDefinition;
}> = [
  {
    key: 'elevatorRide',
    name: 'Elevator ride with button press',
    description: 'Go to the elevator hall, call the car with the right arm, ride and press the floor button.',
    type: 0,
    definition: {
      version: 1,
      steps: [
        {
          id: 'toHall',
          title: 'Go to the elevator hall',
          type: 'move',
          main: { kind: 'moveToWaypoint', waypointId: null },
          ...noAux,
        },
        {
          id: 'pressCall',
          title: 'Press the call button',
          type: 'pressRight',
          main: { kind: 'pressButton', target: 'call' },
          auxiliary: [{ kind: 'speak', id: 'sayRide', text: 'I am going to ride the elevator.', language: 'en' }],
          before: { pose: armHome('poseCall') },
          after: { waitSeconds: 5 },
        },
        {
          id: 'board',
          title: 'Board the car',
          type: 'manual',
          main: {
            kind: 'manualCheck',
            instruction: 'Check the door is open and the car is empty enough, then drive in.',
          },
          ...noAux,
        },
        {
          id: 'pressFloor',
          title: 'Press the floor button',
          type: 'pressRight',
          main: { kind: 'pressButton', target: 'floor' },
          auxiliary: [],
          before: { pose: armHome('poseFloor') },
          after: { waitSeconds: 10 },
        },
        {
          id: 'alight',
          title: 'Get off at the floor',
          type: 'manual',
          main: { kind: 'manualCheck', instruction: 'Check the car stopped at the floor and drive out.' },
          ...noAux,
        },
      ],
    },
  },
  {
    key: 'doorPass',
    name: 'Door pass',
    description: 'Go to the door, press the door opener with the left arm and pass when it is open.',
    type: 1,
    definition: {
      version: 1,
      steps: [
        {
          id: 'toDoor',
          title: 'Go to the door',
          type: 'move',
          main: { kind: 'moveToWaypoint', waypointId: null },
          ...noAux,
        },
        {
          id: 'pressOpener',
          title: 'Press the door opener',
          type: 'pressLeft',
          main: { kind: 'pressButton', target: 'door' },
          auxiliary: [{ kind: 'lights', id: 'lamp', patrolLamp: true }],
          before: { pose: null },
          after: { waitSeconds: 3 },
        },
        {
          id: 'pass',
          title: 'Pass the door',
          type: 'manual',
          main: { kind: 'manualCheck', instruction: 'Check the door is open and drive through.' },
          ...noAux,
        },
      ],
    },
  },
  {
    key: 'meterByHand',
    name: 'Meter check by hand',
    description: 'Go to the meter, take a photo and read the value by eye.',
    type: 1,
    definition: {
      version: 1,
      steps: [
        {
          id: 'toMeter',
          title: 'Go to the meter',
          type: 'move',
          main: { kind: 'moveToWaypoint', waypointId: null },
          ...noAux,
        },
        {
          id: 'read',
          title: 'Read the meter',
          type: 'manual',
          main: { kind: 'manualCheck', instruction: 'Read the value on the meter and note anything unusual.' },
          auxiliary: [{ kind: 'takePhoto', id: 'photo', camera: 'v1', resolution: '1080p', saveAsTaskImage: false }],
          before: { pose: armHome('poseMeter') },
          after: { waitSeconds: 0 },
        },
      ],
    },
  },
];

// ---------------------------------------------------------------- runs

/**
 * A work plan being walked through on a robot (docs/api-work-plans.md "Runs"): opened from the
 * operator screen (or by a flow), the operator confirms each step, then closes it. Durable: the
 * operator screen finds a robot's open run again after a reload.
 */
export const WORK_PLAN_RUN_STATUSES = ['open', 'closed'] as const;
export const startWorkPlanRunBodySchema = z.object({ workPlanId: id, robotId: id });
export type StartWorkPlanRunBody = z.infer<typeof startWorkPlanRunBodySchema>;
export const confirmWorkPlanStepBodySchema = z.object({ stepId: stepIdSchema });
export type ConfirmWorkPlanStepBody = z.infer<typeof confirmWorkPlanStepBodySchema>;

/**
 * A movement step the robot is sent to (`POST /work-plan-runs/:id/move`), as the robot's state shows
 * it: `moving` until the order is finished; `arrived` at the step's waypoint (the step is then checked);
 * `failed` (the robot refused or dropped the order, or stopped elsewhere: `errorCode`, `message`).
 */
export const WORK_PLAN_MOVE_STATUSES = ['moving', 'arrived', 'failed'] as const;
export const workPlanMoveSchema = z.object({
  stepId: z.string(),
  orderId: z.string(),
  status: z.enum(WORK_PLAN_MOVE_STATUSES),
  errorCode: z.string().nullable(),
  message: z.string().nullable(),
});
export type WorkPlanMove = z.infer<typeof workPlanMoveSchema>;
export const moveWorkPlanStepBodySchema = z.object({ stepId: stepIdSchema });
export type MoveWorkPlanStepBody = z.infer<typeof moveWorkPlanStepBodySchema>;

export const workPlanRunSchema = z.object({
  id: z.number().int(),
  workPlanId: z.number().int(),
  workPlanName: z.string(),
  robotId: z.number().int(),
  /** The flow run that launched it and waits for it to close, or null. */
  flowRunId: z.number().int().nullable(),
  status: z.enum(WORK_PLAN_RUN_STATUSES),
  /** Index of the first step not yet confirmed (the number of steps once all are). */
  currentStep: z.number().int(),
  doneSteps: z.array(z.string()),
  /** The plan's steps as they were when the run started. */
  definition: z.custom<WorkPlanDefinition>(),
  startedAt: z.string(),
  closedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The movement step the robot was last sent to by this run, while the robot's state shows it (else null). */
  move: workPlanMoveSchema.nullable().optional(),
});
export type WorkPlanRun = z.infer<typeof workPlanRunSchema>;
