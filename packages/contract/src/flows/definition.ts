import { z } from 'zod';
import { REPORT_TYPES, type ReportType } from '../reports/resources.ts';
import { cameraIdSchema, thermalColorMapSchema, uploadQualitySchema, type RobotCapabilities } from '../teleop.ts';

/**
 * The flow definition (issue 13; docs/api-flows.md): what a robot carries out, as versioned JSON that
 * the editor, the server and the runner share. A definition is `{ version: 1, steps }`; each step is
 * one command kind with its parameters, a stable `id` and an optional error policy. `loop` nests
 * steps. Everything is bounded (lengths, counts, nesting, total steps) so a malformed or huge
 * definition is refused as a 400 by the schema, never a 500 or a stall.
 *
 * The schema checks shapes; `validateFlowDefinition` checks the rules that span steps or need
 * context (task brackets, object detection, work plans, robot capabilities, the building's ids).
 * Messages are i18n keys: `validation.*` (core texts) and `flowValidation.*` (the flows section).
 */

// ---------------------------------------------------------------- limits

export const FLOW_DEFINITION_VERSION = 1;
export const FLOW_LIMITS = {
  /** Steps in a definition, counting the steps inside loops. */
  totalSteps: 500,
  /** Loops one inside another: at most 4 (a fifth loop inside them is refused). */
  loopDepth: 4,
  /** Steps directly in one list (the top level or one loop). */
  stepsPerList: 200,
  stepId: 40,
  taskName: 64,
  speechText: 500,
  message: 200,
  audio: 200,
  displayText: 100,
  doorId: 64,
  waitSeconds: 86_400,
  loopCount: 10_000,
  retries: 5,
  commandParameters: 20,
  parameterName: 40,
  parameterText: 500,
  notificationTargets: 20,
  /** Steps of a library command's own definition. */
  commandSteps: 20,
} as const;

/** Object detection (wait until a person is detected): the range and the cameras that can do it. */
export const PERSON_DETECTION = { minM: 0.5, maxM: 5, cameras: ['v1', 'g1'] as const } as const;

/** Task event and notification levels (spec section 9): 0 information, 5 warning, 9 emergency. */
export const FLOW_LEVELS = [0, 5, 9] as const;
export const flowLevelSchema = z.union([z.literal(0), z.literal(5), z.literal(9)], { error: 'validation.required' });

/** Photo resolutions a flow may ask for (up to 4K, spec "photos up to 4K"). */
export const PHOTO_RESOLUTIONS = ['720p', '1080p', '4k'] as const;
/** Face expressions of the robot's display. */
export const FACE_EXPRESSIONS = ['normal', 'smile', 'surprised', 'sad', 'sleep', 'blink'] as const;
/** Languages of free speech text in a flow. */
export const FLOW_SPEECH_LANGUAGES = ['ja', 'en'] as const;

// ---------------------------------------------------------------- parts

const id = z.number({ error: 'validation.number' }).int('validation.integer').min(1, 'validation.range');
const num = (min: number, max: number) =>
  z
    .number({ error: 'validation.number' })
    .refine(Number.isFinite, 'validation.number')
    .refine((v) => v >= min && v <= max, 'validation.range');
const int = (min: number, max: number) =>
  z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(min, 'validation.range')
    .max(max, 'validation.range');
const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(max, { error: 'validation.tooLong' });

/** A step's stable id: letters, digits, `-` and `_` (the editor makes them; the runner records them). */
export const stepIdSchema = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .max(FLOW_LIMITS.stepId, 'validation.tooLong')
  .regex(/^[A-Za-z0-9_-]+$/, 'flowValidation.stepId');

/** What happens when a step fails: retry it up to n times (then abort), skip to the next, or abort the run. */
export const errorPolicySchema = z.discriminatedUnion(
  'policy',
  [
    z.object({ policy: z.literal('retry'), retries: int(1, FLOW_LIMITS.retries) }),
    z.object({ policy: z.literal('skip') }),
    z.object({ policy: z.literal('abort') }),
  ],
  { error: 'validation.invalid' },
);
export type ErrorPolicy = z.infer<typeof errorPolicySchema>;

const base = { id: stepIdSchema, onError: errorPolicySchema.optional() };
const step = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ kind: z.literal(kind), ...base, ...shape });

/** A parameter value given to a library command (strings bounded). */
export const parameterValueSchema = z.union([
  z.string().max(FLOW_LIMITS.parameterText, 'validation.tooLong'),
  z.number().refine(Number.isFinite, 'validation.number'),
  z.boolean(),
]);

// ---------------------------------------------------------------- the kinds (all but loop)

const leafSteps = [
  /** Drive to a waypoint of the current floor's map. */
  step('moveToWaypoint', { waypointId: id, speed: z.enum(['normal', 'slow']).optional() }),
  /** Drive a named route of the current floor's map. */
  step('followRoute', { routeId: id }),
  /** Ride the elevator to another floor of the building and drive to a waypoint there (the current floor changes). */
  step('moveToFloor', { floorId: id, waypointId: id }),
  /** Pass a security door of the building's system link (the door's id there). */
  step('passSecurityDoor', { doorId: text(FLOW_LIMITS.doorId) }),
  step('returnToCharger', {}),
  /**
   * Wait `seconds`; with `detectPerson`, wait until a person is within `distanceM` of the camera
   * (analysed every 0.1 s, circular range), `seconds` being the timeout (0: no timeout).
   */
  step('wait', {
    seconds: int(0, FLOW_LIMITS.waitSeconds),
    detectPerson: z.object({ camera: cameraIdSchema, distanceM: num(0, 100) }).optional(),
  }),
  /** Speak one of the building's speech texts, or a free text in Japanese or English. */
  step('speak', {
    speechTextId: id.optional(),
    text: text(FLOW_LIMITS.speechText).optional(),
    language: z.enum(FLOW_SPEECH_LANGUAGES, { error: 'validation.required' }).optional(),
  }),
  step('playAudio', { audio: text(FLOW_LIMITS.audio), volume: int(0, 100).optional() }),
  step('takePhoto', {
    camera: cameraIdSchema,
    resolution: z.enum(PHOTO_RESOLUTIONS, { error: 'validation.required' }),
    saveAsTaskImage: z.boolean(),
  }),
  step('recording', {
    action: z.enum(['start', 'stop'], { error: 'validation.required' }),
    quality: uploadQualitySchema.optional(),
  }),
  step('cameraSettings', {
    camera: cameraIdSchema,
    zoom: num(1, 30).optional(),
    colorMap: thermalColorMapSchema.optional(),
  }),
  /** Gimbal (pan/tilt degrees), periscope or arm posture (a pose definition of the organization). */
  step('pose', {
    target: z.enum(['gimbal', 'periscope', 'arm'], { error: 'validation.required' }),
    poseDefId: id.optional(),
    pan: num(-180, 180).optional(),
    tilt: num(-90, 90).optional(),
  }),
  step('face', {
    expression: z.enum(FACE_EXPRESSIONS, { error: 'validation.required' }),
    text: text(FLOW_LIMITS.displayText).optional(),
  }),
  step('lights', { ringLight: z.boolean().optional(), patrolLamp: z.boolean().optional() }),
  /** The minimum stopping distance of collision prevention, in metres. */
  step('safetyMargin', { meters: num(0.1, 2) }),
  step('taskStart', { name: text(FLOW_LIMITS.taskName) }),
  step('taskComplete', {}),
  step('taskEvent', { level: flowLevelSchema, message: text(FLOW_LIMITS.message) }),
  step('notification', {
    level: flowLevelSchema,
    message: text(FLOW_LIMITS.message),
    targetIds: z.array(id).max(FLOW_LIMITS.notificationTargets, 'validation.tooLong').optional(),
  }),
  /**
   * Check an item (issue 17; docs/meter-reading.md): drive to the check item's place (x, y, direction
   * on its floor), take a photo with the camera (default the front camera v1) and have it read.
   */
  step('meterCheck', { checkItemId: id, camera: cameraIdSchema.optional() }),
  /** Launch a work plan (refused by the validator until work plans exist). */
  step('launchWorkPlan', { workPlanId: id }),
  /** Use a library command (`/commands`) with parameter values. */
  step('command', {
    commandId: id,
    parameters: z
      .record(z.string().max(FLOW_LIMITS.parameterName, 'validation.tooLong'), parameterValueSchema)
      .refine((r) => Object.keys(r).length <= FLOW_LIMITS.commandParameters, 'validation.tooLong')
      .optional(),
  }),
] as const;

/** One leaf kind's schema: work plans reuse speech, photo, lights and pose (issue 14). */
export const leafStepSchema = <K extends Exclude<StepKind, 'loop'>>(kind: K) =>
  leafSteps.find((s) => s.shape.kind.value === kind) as Extract<
    (typeof leafSteps)[number],
    { shape: { kind: z.ZodLiteral<K> } }
  >;

/** Every step kind (the runner's and editor's list). */
export const STEP_KINDS = [...leafSteps.map((s) => s.shape.kind.value), 'loop'] as const;
export type StepKind = (typeof leafSteps)[number]['shape']['kind']['value'] | 'loop';

type LeafStep = z.infer<(typeof leafSteps)[number]>;
export type LoopStep = {
  kind: 'loop';
  id: string;
  onError?: ErrorPolicy | undefined;
  /** Times to run the steps; null: until the run is cancelled. */
  count: number | null;
  steps: FlowStep[];
};
export type FlowStep = LeafStep | LoopStep;
export type StepOf<K extends StepKind> = Extract<FlowStep, { kind: K }>;

const loopFields = {
  count: int(1, FLOW_LIMITS.loopCount).nullable(),
};

/**
 * Steps at one nesting depth. Built without recursion (one schema per depth) so even a hostile,
 * deeply nested body is refused at the depth limit without descending further.
 */
function stepsAt(depth: number): z.ZodType<FlowStep[]> {
  const loop =
    depth < FLOW_LIMITS.loopDepth
      ? step('loop', {
          ...loopFields,
          steps: stepsAt(depth + 1).refine((s) => s.length > 0, 'flowValidation.emptyLoop'),
        })
      : step('loop', { ...loopFields, steps: z.array(z.unknown()) }).superRefine((_v, ctx) =>
          ctx.addIssue({ code: 'custom', path: ['steps'], message: 'flowValidation.tooDeep' }),
        );
  const union = z.discriminatedUnion('kind', [...leafSteps, loop], { error: 'flowValidation.unknownKind' });
  return z.array(union).max(FLOW_LIMITS.stepsPerList, 'flowValidation.tooManySteps') as unknown as z.ZodType<
    FlowStep[]
  >;
}

/** Every step of a definition with its path, depth first in order (loops before their steps). */
export function* walkSteps(
  steps: readonly FlowStep[],
  path: (string | number)[] = ['steps'],
): Generator<{ step: FlowStep; path: (string | number)[] }> {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const at = [...path, i];
    yield { step: s, path: at };
    if (s.kind === 'loop') yield* walkSteps(s.steps, [...at, 'steps']);
  }
}

export const countSteps = (steps: readonly FlowStep[]): number => {
  let n = 0;
  for (const _ of walkSteps(steps)) n++;
  return n;
};

/** Shapes within a step that the discriminated union cannot say (one of, required together). */
export function stepShapeIssues(s: FlowStep): Array<{ field: string; message: string }> {
  switch (s.kind) {
    case 'speak': {
      const hasText = s.text !== undefined;
      if ((s.speechTextId !== undefined) === hasText)
        return [{ field: 'speechTextId', message: 'flowValidation.speechSource' }];
      if (hasText && s.language === undefined) return [{ field: 'language', message: 'validation.required' }];
      return [];
    }
    case 'pose':
      if (s.target === 'gimbal' && (s.pan === undefined || s.tilt === undefined))
        return [{ field: 'pan', message: 'flowValidation.gimbalAngles' }];
      if (s.target !== 'gimbal' && s.poseDefId === undefined)
        return [{ field: 'poseDefId', message: 'validation.required' }];
      return [];
    case 'lights':
      return s.ringLight === undefined && s.patrolLamp === undefined
        ? [{ field: 'ringLight', message: 'flowValidation.lightsNothing' }]
        : [];
    default:
      return [];
  }
}

const definitionShape = (maxSteps: number) =>
  z
    .object(
      {
        version: z.literal(FLOW_DEFINITION_VERSION, { error: 'flowValidation.version' }),
        steps: stepsAt(0),
        /** The type of the reports its runs make (issue 16): 0 patrol (default), 1 sentry, 30 cleaning. */
        reportType: z
          .union(REPORT_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<30>], {
            error: 'validation.invalid',
          })
          .optional(),
      },
      { error: 'validation.required' },
    )
    .superRefine((def, ctx) => {
      const seen = new Set<string>();
      let n = 0;
      for (const { step: s, path } of walkSteps(def.steps)) {
        if (++n > maxSteps) {
          ctx.addIssue({ code: 'custom', path: ['steps'], message: 'flowValidation.tooManySteps' });
          return;
        }
        if (seen.has(s.id))
          ctx.addIssue({ code: 'custom', path: [...path, 'id'], message: 'flowValidation.duplicateStepId' });
        seen.add(s.id);
        for (const i of stepShapeIssues(s))
          ctx.addIssue({ code: 'custom', path: [...path, i.field], message: i.message });
      }
    });

/** A flow's definition, version 1. */
export const flowDefinitionSchema = definitionShape(FLOW_LIMITS.totalSteps);
export type FlowDefinition = { version: typeof FLOW_DEFINITION_VERSION; steps: FlowStep[]; reportType?: ReportType };

/** A library command's definition: one kind with preset parameters, or a short sequence. */
export const commandDefinitionSchema = definitionShape(FLOW_LIMITS.commandSteps).refine((d) => d.steps.length > 0, {
  path: ['steps'],
  message: 'flowValidation.emptyCommand',
});

export const emptyFlowDefinition = (): FlowDefinition => ({ version: FLOW_DEFINITION_VERSION, steps: [] });

// ---------------------------------------------------------------- error policies

/**
 * The policy of a step without `onError`: moves retry twice then abort (a blocked corridor often
 * clears); what only informs or records (speech, audio, photos, display, lights, notifications,
 * task events) is skipped so a patrol goes on; task brackets, waits, loops, safety margin, work
 * plans and library commands abort (the rest of the run depends on them).
 */
export const DEFAULT_ERROR_POLICY: Record<StepKind, ErrorPolicy> = {
  moveToWaypoint: { policy: 'retry', retries: 2 },
  followRoute: { policy: 'retry', retries: 2 },
  moveToFloor: { policy: 'retry', retries: 2 },
  passSecurityDoor: { policy: 'retry', retries: 2 },
  returnToCharger: { policy: 'retry', retries: 2 },
  wait: { policy: 'abort' },
  loop: { policy: 'abort' },
  speak: { policy: 'skip' },
  playAudio: { policy: 'skip' },
  takePhoto: { policy: 'skip' },
  recording: { policy: 'skip' },
  cameraSettings: { policy: 'skip' },
  pose: { policy: 'skip' },
  face: { policy: 'skip' },
  lights: { policy: 'skip' },
  safetyMargin: { policy: 'abort' },
  taskStart: { policy: 'abort' },
  taskComplete: { policy: 'abort' },
  taskEvent: { policy: 'skip' },
  notification: { policy: 'skip' },
  meterCheck: { policy: 'skip' },
  launchWorkPlan: { policy: 'abort' },
  command: { policy: 'abort' },
};

export const errorPolicyOf = (s: FlowStep): ErrorPolicy => s.onError ?? DEFAULT_ERROR_POLICY[s.kind];

// ---------------------------------------------------------------- validation

/** One problem of a definition: `path` into it (`steps.2.steps.0.camera`), `message` an i18n key. */
export interface FlowIssue {
  path: string;
  /** The step the issue is about. */
  stepId: string;
  message: string;
  /** Values for the message (`capability`, `model`...). */
  params?: Record<string, string>;
}

/** What a robot can do, as far as a flow cares (a robot's factsheet, `RobotCapabilities`). */
export type FlowRobotCapabilities = Pick<
  RobotCapabilities,
  | 'cameras'
  | 'gimbal'
  | 'periscope'
  | 'ringLight'
  | 'patrolLamp'
  | 'thermal'
  | 'recording'
  | 'photo'
  | 'speech'
  | 'workPlan'
>;

export interface FlowValidationContext {
  /**
   * The robot the flow is checked for (the editor's chosen robot, the runner's robot): each step it
   * cannot do is refused with the reason. Absent: not checked (a flow is not bound to one robot).
   */
  robot?: { model: string; capabilities: FlowRobotCapabilities };
  /**
   * Library commands the definition may use, by id: a `command` step naming another is refused;
   * one whose `modelsAllowed` (empty: every model) excludes `robot.model` is refused.
   */
  commands?: ReadonlyMap<number, FlowCommandRef>;
  /** The building's ids (the server's check); absent: ids are not checked. */
  building?: FlowBuildingRefs;
  /** Work plans exist (issue "work plans"); until then `launchWorkPlan` is refused. */
  workPlans?: boolean;
  /** The definition is a library command's: `command` steps are not allowed inside. */
  inCommand?: boolean;
}

export interface FlowCommandRef {
  modelsAllowed: readonly string[];
  /**
   * The command's own steps, when known: checked where the flow uses the command (task use, the
   * building's ids on the floor the robot is on, the robot's capabilities) and reported at that step.
   */
  steps?: readonly FlowStep[];
  /** Parameter names and types the command takes (values given in a step are checked against them). */
  parameters: ReadonlyArray<{ name: string; type: 'string' | 'number' | 'boolean' }>;
}

export interface FlowBuildingRefs {
  /** The floor the flow starts on (the flow's floor). */
  startFloorId: number;
  floorIds: ReadonlySet<number>;
  /** Waypoint and route ids of each floor's current map. */
  waypoints: ReadonlyMap<number, ReadonlySet<number>>;
  routes: ReadonlyMap<number, ReadonlySet<number>>;
  speechTextIds: ReadonlySet<number>;
  poseDefIds: ReadonlySet<number>;
  /** Check items of the building by id, with their floor (a `meterCheck` step's item is on the current floor). */
  checkItems?: ReadonlyMap<number, { floorId: number }>;
}

/** The capability a step needs of the robot (a key of `flowValidation.capabilities.*`), or none. */
function neededCapabilities(s: FlowStep): Array<{ capability: string; has: (c: FlowRobotCapabilities) => boolean }> {
  const camera = (cam: string) => ({
    capability: `camera:${cam}`,
    has: (c: FlowRobotCapabilities) => c.cameras.includes(cam as never),
  });
  switch (s.kind) {
    case 'takePhoto':
      return [{ capability: 'photo', has: (c) => c.photo }, camera(s.camera)];
    case 'meterCheck':
      return [{ capability: 'photo', has: (c) => c.photo }, camera(s.camera ?? 'v1')];
    case 'wait':
      return s.detectPerson ? [camera(s.detectPerson.camera)] : [];
    case 'speak':
    case 'playAudio':
      return [{ capability: 'speech', has: (c) => c.speech }];
    case 'recording':
      return [{ capability: 'recording', has: (c) => c.recording }];
    case 'cameraSettings':
      return [
        camera(s.camera),
        ...(s.colorMap ? [{ capability: 'thermal', has: (c: FlowRobotCapabilities) => c.thermal }] : []),
      ];
    case 'pose':
      if (s.target === 'gimbal') return [{ capability: 'gimbal', has: (c) => c.gimbal }];
      if (s.target === 'periscope') return [{ capability: 'periscope', has: (c) => c.periscope !== null }];
      return [];
    case 'lights':
      return [
        ...(s.ringLight !== undefined
          ? [{ capability: 'ringLight', has: (c: FlowRobotCapabilities) => c.ringLight }]
          : []),
        ...(s.patrolLamp !== undefined
          ? [{ capability: 'patrolLamp', has: (c: FlowRobotCapabilities) => c.patrolLamp }]
          : []),
      ];
    default:
      return [];
  }
}

const isMove = (k: StepKind) =>
  k === 'moveToWaypoint' ||
  k === 'followRoute' ||
  k === 'moveToFloor' ||
  k === 'passSecurityDoor' ||
  k === 'returnToCharger';

/** Whether a flow moves the robot (a schedule may stop a flow without moves at its end time). */
export const flowMoves = (def: FlowDefinition): boolean => {
  for (const { step: s } of walkSteps(def.steps))
    if (isMove(s.kind) || s.kind === 'command' || s.kind === 'meterCheck') return true;
  return false;
};

/**
 * The rules of a (schema-valid) definition, shared by the server, the editor and the runner:
 * - task brackets: `taskStart` opens a task that `taskComplete` closes, in the same step list; tasks
 *   do not nest; every task is closed; `taskEvent` and photos with `saveAsTaskImage` only inside a task
 *   (a loop inside a task counts as inside);
 * - object detection (`wait.detectPerson`): 0.5 to 5 m, front (v1) or gimbal (g1) camera only;
 * - `launchWorkPlan` is refused until work plans exist;
 * - with `ctx.robot`, a step the robot cannot do is refused naming the capability;
 * - with `ctx.commands`, `command` steps name known commands the robot's model may use, with known
 *   parameters of the right type;
 * - with `ctx.building`, waypoints and routes are of the current floor's map (the flow's floor until a
 *   `moveToFloor` changes it), floors, speech texts and pose definitions are the building's.
 */
export function validateFlowDefinition(def: FlowDefinition, ctx: FlowValidationContext = {}): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const add = (path: (string | number)[], s: FlowStep, message: string, params?: Record<string, string>) =>
    issues.push({ path: path.join('.'), stepId: s.id, message, ...(params ? { params } : {}) });
  const b = ctx.building;
  let floor = b?.startFloorId ?? null;

  /**
   * The building's ids a step names, following the floor the robot is on. `report` says where an
   * issue goes (the step's field, or the flow's `command` step for a library command's steps).
   */
  const checkRefs = (s: FlowStep, report: (field: string, message: string) => void): void => {
    if (!b) return;
    switch (s.kind) {
      case 'moveToWaypoint':
        if (floor === null || !b.waypoints.get(floor)?.has(s.waypointId))
          report('waypointId', 'flowValidation.notOnFloor');
        break;
      case 'followRoute':
        if (floor === null || !b.routes.get(floor)?.has(s.routeId)) report('routeId', 'flowValidation.notOnFloor');
        break;
      case 'moveToFloor':
        if (!b.floorIds.has(s.floorId)) {
          report('floorId', 'validation.notInBuilding');
          floor = null;
          break;
        }
        floor = s.floorId;
        if (!b.waypoints.get(floor)?.has(s.waypointId)) report('waypointId', 'flowValidation.notOnFloor');
        break;
      case 'speak':
        if (s.speechTextId !== undefined && !b.speechTextIds.has(s.speechTextId))
          report('speechTextId', 'validation.notInBuilding');
        break;
      case 'pose':
        if (s.poseDefId !== undefined && !b.poseDefIds.has(s.poseDefId))
          report('poseDefId', 'validation.notInBuilding');
        break;
      case 'meterCheck': {
        if (!b.checkItems) break;
        const item = b.checkItems.get(s.checkItemId);
        if (!item) report('checkItemId', 'validation.notInBuilding');
        else if (floor !== null && item.floorId !== floor) report('checkItemId', 'flowValidation.notOnFloor');
        break;
      }
      case 'loop':
        for (const inner of s.steps) checkRefs(inner, report);
        break;
      default:
        break;
    }
  };

  /**
   * Task brackets, per step list: a task is open from its taskStart to the taskComplete. `inTask`
   * null: a library command's own steps, which may be used inside or outside a task (the flow
   * using the command is checked with `commandTaskUse`).
   */
  const visit = (steps: readonly FlowStep[], path: (string | number)[], inTask: boolean | null): void => {
    let open: { at: (string | number)[]; step: FlowStep } | null = null;
    steps.forEach((s, i) => {
      const at = [...path, i];
      const inside = inTask === true || open !== null;
      const knownOutside = !inside && inTask !== null;
      switch (s.kind) {
        case 'taskStart':
          if (inside) add(at, s, 'flowValidation.taskNested');
          else open = { at, step: s };
          break;
        case 'taskComplete':
          if (open) open = null;
          else add(at, s, inTask ? 'flowValidation.taskCloseOutside' : 'flowValidation.taskNotStarted');
          break;
        case 'taskEvent':
          if (knownOutside) add(at, s, 'flowValidation.outsideTask');
          break;
        case 'takePhoto':
          if (s.saveAsTaskImage && knownOutside) add([...at, 'saveAsTaskImage'], s, 'flowValidation.outsideTask');
          break;
        case 'wait':
          if (s.detectPerson) {
            const d = s.detectPerson;
            if (d.distanceM < PERSON_DETECTION.minM || d.distanceM > PERSON_DETECTION.maxM)
              add([...at, 'detectPerson', 'distanceM'], s, 'flowValidation.detectionDistance');
            if (!(PERSON_DETECTION.cameras as readonly string[]).includes(d.camera))
              add([...at, 'detectPerson', 'camera'], s, 'flowValidation.detectionCamera');
          }
          break;
        case 'launchWorkPlan':
          if (!ctx.workPlans) add(at, s, 'flowValidation.workPlansUnavailable');
          break;
        case 'command': {
          if (ctx.inCommand) {
            add(at, s, 'flowValidation.commandInCommand');
            break;
          }
          if (!ctx.commands) break;
          const c = ctx.commands.get(s.commandId);
          if (!c) {
            add([...at, 'commandId'], s, 'validation.notFound');
            break;
          }
          if (ctx.robot && c.modelsAllowed.length > 0 && !c.modelsAllowed.includes(ctx.robot.model))
            add([...at, 'commandId'], s, 'flowValidation.commandModel', { model: ctx.robot.model });
          for (const [name, value] of Object.entries(s.parameters ?? {})) {
            const p = c.parameters.find((x) => x.name === name);
            if (!p) add([...at, 'parameters', name], s, 'flowValidation.unknownParameter', { name });
            else if (typeof value !== p.type)
              add([...at, 'parameters', name], s, 'flowValidation.parameterType', { name });
          }
          if (c.steps) {
            // The command's steps run here: its task use and the building's ids, reported at the step.
            const use = commandTaskUse(c.steps);
            if (use.needsTask && !inside) add([...at, 'commandId'], s, 'flowValidation.commandNeedsTask');
            if (use.startsTask && inside) add([...at, 'commandId'], s, 'flowValidation.taskNested');
            const reported = new Set<string>();
            for (const inner of c.steps)
              checkRefs(inner, (_field, message) => {
                if (reported.has(message)) return;
                reported.add(message);
                add([...at, 'commandId'], s, 'flowValidation.commandNotHere', { reason: message });
              });
            if (ctx.robot)
              for (const { step: inner } of walkSteps(c.steps))
                for (const need of neededCapabilities(inner))
                  if (!need.has(ctx.robot.capabilities))
                    add(at, s, 'flowValidation.capability', { capability: need.capability, model: ctx.robot.model });
          }
          break;
        }
        case 'loop':
          visit(s.steps, [...at, 'steps'], inside ? true : inTask);
          break;
        default:
          break;
      }
      if (ctx.robot) {
        for (const need of neededCapabilities(s))
          if (!need.has(ctx.robot.capabilities))
            add(at, s, 'flowValidation.capability', { capability: need.capability, model: ctx.robot.model });
      }
      if (s.kind !== 'loop') checkRefs(s, (field, message) => add([...at, field], s, message));
    });
    // A task closes in the step list it started in (not after the loop holding its start).
    const unclosed = open as { at: (string | number)[]; step: FlowStep } | null;
    if (unclosed) add(unclosed.at, unclosed.step, 'flowValidation.taskNotClosed');
  };
  visit(def.steps, ['steps'], ctx.inCommand ? null : false);
  return issues;
}

/**
 * How a library command's steps use tasks: `needsTask` when it saves task images or sends task
 * events outside a task of its own (so a flow may use it only inside a task), `startsTask` when it
 * brackets a task itself (so a flow may not use it inside one).
 */
export function commandTaskUse(steps: readonly FlowStep[]): { needsTask: boolean; startsTask: boolean } {
  let needsTask = false;
  let startsTask = false;
  const visit = (list: readonly FlowStep[], inTask: boolean) => {
    let open = false;
    for (const s of list) {
      const inside = inTask || open;
      if (s.kind === 'taskStart') {
        startsTask = true;
        open = true;
      } else if (s.kind === 'taskComplete') open = false;
      else if ((s.kind === 'taskEvent' || (s.kind === 'takePhoto' && s.saveAsTaskImage)) && !inside) needsTask = true;
      else if (s.kind === 'loop') visit(s.steps, inside);
    }
  };
  visit(steps, false);
  return { needsTask, startsTask };
}

/** The library commands a definition uses (ids, each once, in order of first use). */
export function commandIdsOf(def: FlowDefinition): number[] {
  const ids = new Set<number>();
  for (const { step: s } of walkSteps(def.steps)) if (s.kind === 'command') ids.add(s.commandId);
  return [...ids];
}
