import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ERROR_POLICY,
  FLOW_LIMITS,
  STEP_KINDS,
  commandDefinitionSchema,
  commandIdsOf,
  commandInputSchema,
  errorPolicyOf,
  flowDefinitionSchema,
  flowInputSchema,
  flowMoves,
  validateFlowDefinition,
  type FlowDefinition,
  type FlowRobotCapabilities,
  type FlowStep,
} from '../src/index.ts';

const def = (...steps: FlowStep[]): FlowDefinition => ({ version: 1, steps });
const messages = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`);
const issues = (d: FlowDefinition, ctx?: Parameters<typeof validateFlowDefinition>[1]) =>
  validateFlowDefinition(d, ctx).map((i) => `${i.path}:${i.message}`);

/** One step of every kind, each valid on its own. */
const everyKind: FlowStep[] = [
  { kind: 'moveToWaypoint', id: 'k1', waypointId: 1, speed: 'slow' },
  { kind: 'followRoute', id: 'k2', routeId: 1 },
  { kind: 'moveToFloor', id: 'k3', floorId: 2, waypointId: 1 },
  { kind: 'passSecurityDoor', id: 'k4', doorId: 'door-1' },
  { kind: 'returnToCharger', id: 'k5' },
  { kind: 'wait', id: 'k6', seconds: 10 },
  { kind: 'speak', id: 'k7', text: 'こんにちは', language: 'ja' },
  { kind: 'playAudio', id: 'k8', audio: 'chime', volume: 50 },
  { kind: 'recording', id: 'k9', action: 'start', quality: 'high' },
  { kind: 'cameraSettings', id: 'k10', camera: 'thermal', colorMap: 'ir' },
  { kind: 'pose', id: 'k11', target: 'gimbal', pan: 10, tilt: -5 },
  { kind: 'face', id: 'k12', expression: 'smile', text: 'Hello' },
  { kind: 'lights', id: 'k13', ringLight: true },
  { kind: 'safetyMargin', id: 'k14', meters: 0.5 },
  { kind: 'taskStart', id: 'k15', name: 'Check' },
  { kind: 'takePhoto', id: 'k16', camera: 'v1', resolution: '4k', saveAsTaskImage: true },
  { kind: 'taskEvent', id: 'k17', level: 9, message: 'Smoke' },
  { kind: 'taskComplete', id: 'k18' },
  { kind: 'notification', id: 'k19', level: 5, message: 'Done', targetIds: [1] },
  { kind: 'launchWorkPlan', id: 'k20', workPlanId: 1 },
  { kind: 'command', id: 'k21', commandId: 7, parameters: { volume: 3 } },
  { kind: 'meterCheck', id: 'k24', checkItemId: 3 },
  { kind: 'loop', id: 'k22', count: null, steps: [{ kind: 'returnToCharger', id: 'k23' }] },
];

describe('flow definition schema', () => {
  it('accepts a step of every kind, and names every kind with a default error policy', () => {
    expect(messages(flowDefinitionSchema.safeParse(def(...everyKind)))).toEqual([]);
    expect(new Set(everyKind.map((s) => s.kind))).toEqual(new Set(STEP_KINDS));
    expect(Object.keys(DEFAULT_ERROR_POLICY).sort()).toEqual([...STEP_KINDS].sort());
    expect(errorPolicyOf(everyKind[0]!)).toEqual({ policy: 'retry', retries: 2 });
    expect(errorPolicyOf({ kind: 'speak', id: 'x', speechTextId: 1, onError: { policy: 'abort' } })).toEqual({
      policy: 'abort',
    });
  });

  it('refuses other versions, unknown kinds, bad ids, duplicate ids and out-of-range parameters', () => {
    expect(messages(flowDefinitionSchema.safeParse({ version: 2, steps: [] }))).toEqual([
      'version:flowValidation.version',
    ]);
    expect(messages(flowDefinitionSchema.safeParse({ version: 1, steps: [{ kind: 'fly', id: 'a' }] }))).toEqual([
      'steps.0.kind:flowValidation.unknownKind',
    ]);
    expect(
      messages(
        flowDefinitionSchema.safeParse(
          def(
            { kind: 'returnToCharger', id: 'a b' },
            { kind: 'returnToCharger', id: 'x' },
            { kind: 'returnToCharger', id: 'x' },
          ),
        ),
      ),
    ).toEqual(['steps.0.id:flowValidation.stepId', 'steps.2.id:flowValidation.duplicateStepId']);
    const bad = flowDefinitionSchema.safeParse({
      version: 1,
      steps: [
        { kind: 'takePhoto', id: 'a', camera: 'x9', resolution: '8k', saveAsTaskImage: false },
        { kind: 'safetyMargin', id: 'b', meters: 5 },
        { kind: 'wait', id: 'c', seconds: -1 },
        { kind: 'taskEvent', id: 'd', level: 3, message: '' },
        { kind: 'moveToWaypoint', id: 'e', waypointId: 1, onError: { policy: 'retry', retries: 99 } },
      ],
    });
    expect(messages(bad).map((m) => m.split(':')[0])).toEqual([
      'steps.0.camera',
      'steps.0.resolution',
      'steps.1.meters',
      'steps.2.seconds',
      'steps.3.level',
      'steps.3.message',
      'steps.4.onError.retries',
    ]);
  });

  it('says which of the one-of parameters is missing', () => {
    expect(
      messages(
        flowDefinitionSchema.safeParse(
          def(
            { kind: 'speak', id: 'a' },
            { kind: 'speak', id: 'b', text: 'hi' },
            { kind: 'pose', id: 'c', target: 'gimbal', pan: 1 },
            { kind: 'pose', id: 'd', target: 'arm' },
            { kind: 'lights', id: 'e' },
          ),
        ),
      ),
    ).toEqual([
      'steps.0.speechTextId:flowValidation.speechSource',
      'steps.1.language:validation.required',
      'steps.2.pan:flowValidation.gimbalAngles',
      'steps.3.poseDefId:validation.required',
      'steps.4.ringLight:flowValidation.lightsNothing',
    ]);
  });

  it('is bounded: total steps, steps per list, nesting depth and text lengths', () => {
    const leaf = (i: number): FlowStep => ({ kind: 'returnToCharger', id: `s${i}` });
    expect(
      messages(
        flowDefinitionSchema.safeParse(def(...Array.from({ length: FLOW_LIMITS.stepsPerList + 1 }, (_, i) => leaf(i)))),
      ),
    ).toEqual(['steps:flowValidation.tooManySteps']);
    const loops = Array.from({ length: 3 }, (_, l) => ({
      kind: 'loop' as const,
      id: `l${l}`,
      count: 1,
      steps: Array.from({ length: 200 }, (_, i) => leaf(l * 1000 + i)),
    }));
    expect(messages(flowDefinitionSchema.safeParse(def(...loops)))).toEqual(['steps:flowValidation.tooManySteps']);
    // Nesting: 4 loops one inside another are fine, a fifth inside them is not.
    const nest = (levels: number): FlowStep => {
      let s: FlowStep = leaf(0);
      for (let i = 0; i < levels; i++) s = { kind: 'loop', id: `n${i}`, count: 2, steps: [s] };
      return s;
    };
    expect(flowDefinitionSchema.safeParse(def(nest(FLOW_LIMITS.loopDepth))).success).toBe(true);
    const tooDeep = messages(flowDefinitionSchema.safeParse(def(nest(FLOW_LIMITS.loopDepth + 1))));
    expect(tooDeep).toEqual([`${'steps.0.'.repeat(FLOW_LIMITS.loopDepth + 1)}steps:flowValidation.tooDeep`]);
    // A hostile nesting (10,000 levels) is refused at the limit, without descending (no stack overflow).
    let hostile: unknown = leaf(0);
    for (let i = 0; i < 10_000; i++) hostile = { kind: 'loop', id: `h${i}`, count: 1, steps: [hostile] };
    expect(flowDefinitionSchema.safeParse({ version: 1, steps: [hostile] }).success).toBe(false);
    expect(
      messages(flowDefinitionSchema.safeParse(def({ kind: 'speak', id: 'a', text: 'x'.repeat(501), language: 'en' }))),
    ).toEqual(['steps.0.text:validation.tooLong']);
    expect(messages(flowDefinitionSchema.safeParse(def({ kind: 'loop', id: 'a', count: 1, steps: [] })))).toEqual([
      'steps.0.steps:flowValidation.emptyLoop',
    ]);
  });

  it('limits a library command to a short non-empty sequence', () => {
    expect(messages(commandDefinitionSchema.safeParse(def()))).toEqual(['steps:flowValidation.emptyCommand']);
    const long = def(
      ...Array.from({ length: FLOW_LIMITS.commandSteps + 1 }, (_, i): FlowStep => ({
        kind: 'returnToCharger',
        id: `c${i}`,
      })),
    );
    expect(messages(commandDefinitionSchema.safeParse(long))).toEqual(['steps:flowValidation.tooManySteps']);
  });
});

describe('validateFlowDefinition', () => {
  it('accepts a well-formed patrol', () => {
    const ok = def(...everyKind.filter((s) => s.kind !== 'launchWorkPlan'));
    expect(issues(ok)).toEqual([]);
  });

  it('keeps task images and task events between task start and task complete', () => {
    expect(
      issues(
        def(
          { kind: 'taskEvent', id: 'a', level: 0, message: 'x' },
          { kind: 'takePhoto', id: 'b', camera: 'v1', resolution: '720p', saveAsTaskImage: true },
          { kind: 'takePhoto', id: 'c', camera: 'v1', resolution: '720p', saveAsTaskImage: false },
          { kind: 'taskComplete', id: 'd' },
        ),
      ),
    ).toEqual([
      'steps.0:flowValidation.outsideTask',
      'steps.1.saveAsTaskImage:flowValidation.outsideTask',
      'steps.3:flowValidation.taskNotStarted',
    ]);
    // Nested tasks; a task never completed; a loop inside a task is inside it.
    expect(
      issues(
        def(
          { kind: 'taskStart', id: 'a', name: 'A' },
          { kind: 'loop', id: 'b', count: 2, steps: [{ kind: 'taskEvent', id: 'c', level: 5, message: 'in loop' }] },
          { kind: 'taskStart', id: 'd', name: 'B' },
          { kind: 'taskComplete', id: 'e' },
          { kind: 'taskStart', id: 'f', name: 'C' },
        ),
      ),
    ).toEqual(['steps.2:flowValidation.taskNested', 'steps.4:flowValidation.taskNotClosed']);
    // A task started in a loop closes in that loop, not after it.
    expect(
      issues(
        def(
          { kind: 'loop', id: 'a', count: 2, steps: [{ kind: 'taskStart', id: 'b', name: 'A' }] },
          { kind: 'taskComplete', id: 'c' },
        ),
      ),
    ).toEqual(['steps.0.steps.0:flowValidation.taskNotClosed', 'steps.1:flowValidation.taskNotStarted']);
    expect(
      issues(
        def(
          { kind: 'taskStart', id: 'a', name: 'A' },
          { kind: 'loop', id: 'b', count: 2, steps: [{ kind: 'taskComplete', id: 'c' }] },
        ),
      ),
    ).toEqual(['steps.1.steps.0:flowValidation.taskCloseOutside', 'steps.0:flowValidation.taskNotClosed']);
  });

  it('allows person detection within 0.5 to 5 m with the front or gimbal camera only', () => {
    const wait = (camera: 'v1' | 'g1' | 's1', distanceM: number): FlowStep => ({
      kind: 'wait',
      id: `w${camera}${distanceM}`,
      seconds: 0,
      detectPerson: { camera, distanceM },
    });
    expect(issues(def(wait('v1', 0.5), wait('g1', 5)))).toEqual([]);
    expect(issues(def(wait('v1', 0.4), wait('g1', 5.1), wait('s1', 1)))).toEqual([
      'steps.0.detectPerson.distanceM:flowValidation.detectionDistance',
      'steps.1.detectPerson.distanceM:flowValidation.detectionDistance',
      'steps.2.detectPerson.camera:flowValidation.detectionCamera',
    ]);
  });

  it('refuses launching a work plan until work plans exist', () => {
    const d = def({ kind: 'launchWorkPlan', id: 'a', workPlanId: 1 });
    expect(issues(d)).toEqual(['steps.0:flowValidation.workPlansUnavailable']);
    expect(issues(d, { workPlans: true })).toEqual([]);
  });

  it('refuses what the robot cannot do, naming the capability', () => {
    const none: FlowRobotCapabilities = {
      cameras: ['v1'],
      gimbal: false,
      periscope: null,
      ringLight: false,
      patrolLamp: true,
      thermal: false,
      recording: false,
      photo: true,
      speech: false,
      workPlan: false,
    };
    const d = def(
      { kind: 'takePhoto', id: 'a', camera: 'g1', resolution: '1080p', saveAsTaskImage: false },
      { kind: 'speak', id: 'b', text: 'hi', language: 'en' },
      { kind: 'pose', id: 'c', target: 'gimbal', pan: 0, tilt: 0 },
      { kind: 'lights', id: 'd', ringLight: true, patrolLamp: true },
      { kind: 'recording', id: 'e', action: 'stop' },
      { kind: 'cameraSettings', id: 'f', camera: 'v1', colorMap: 'mono' },
      { kind: 'takePhoto', id: 'g', camera: 'v1', resolution: '1080p', saveAsTaskImage: false },
    );
    const found = validateFlowDefinition(d, { robot: { model: 'mini', capabilities: none } });
    expect(found.map((i) => `${i.path}:${i.params?.capability}`)).toEqual([
      'steps.0:camera:g1',
      'steps.1:speech',
      'steps.2:gimbal',
      'steps.3:ringLight',
      'steps.4:recording',
      'steps.5:thermal',
    ]);
    expect(found.every((i) => i.message === 'flowValidation.capability' && i.params?.model === 'mini')).toBe(true);
  });

  it('checks library commands: known, allowed for the model, parameters known and typed; none inside a command', () => {
    const commands = new Map([
      [7, { modelsAllowed: ['pro'], parameters: [{ name: 'volume', type: 'number' as const }] }],
      [8, { modelsAllowed: [], parameters: [] }],
    ]);
    const robot = {
      model: 'mini',
      capabilities: {
        cameras: [],
        gimbal: false,
        periscope: null,
        ringLight: false,
        patrolLamp: false,
        thermal: false,
        recording: false,
        photo: false,
        speech: false,
        workPlan: false,
      } satisfies FlowRobotCapabilities,
    };
    const d = def(
      { kind: 'command', id: 'a', commandId: 7, parameters: { volume: 'loud', pitch: 1 } },
      { kind: 'command', id: 'b', commandId: 8 },
      { kind: 'command', id: 'c', commandId: 9 },
    );
    expect(issues(d, { commands, robot })).toEqual([
      'steps.0.commandId:flowValidation.commandModel',
      'steps.0.parameters.volume:flowValidation.parameterType',
      'steps.0.parameters.pitch:flowValidation.unknownParameter',
      'steps.2.commandId:validation.notFound',
    ]);
    expect(issues(d, { inCommand: true })).toEqual([
      'steps.0:flowValidation.commandInCommand',
      'steps.1:flowValidation.commandInCommand',
      'steps.2:flowValidation.commandInCommand',
    ]);
    expect(
      commandIdsOf(
        def(...d.steps, { kind: 'loop', id: 'l', count: 1, steps: [{ kind: 'command', id: 'd', commandId: 7 }] }),
      ),
    ).toEqual([7, 8, 9]);
  });

  it('treats a library command as a fragment: checked for its tasks, ids and capabilities where a flow uses it', () => {
    const event: FlowStep[] = [{ kind: 'taskEvent', id: 'e', level: 5, message: 'x' }];
    const task: FlowStep[] = [
      { kind: 'taskStart', id: 's', name: 'T' },
      { kind: 'taskComplete', id: 'c' },
    ];
    const upstairs: FlowStep[] = [
      { kind: 'moveToFloor', id: 'f', floorId: 2, waypointId: 20 },
      { kind: 'speak', id: 'p', speechTextId: 4 },
    ];
    // On its own, a command may send a task event (the flow puts it in a task); it may not leave a task open.
    expect(issues(def(...event), { inCommand: true })).toEqual([]);
    expect(issues(def({ kind: 'taskStart', id: 's', name: 'T' }), { inCommand: true })).toEqual([
      'steps.0:flowValidation.taskNotClosed',
    ]);
    const commands = new Map([
      [1, { modelsAllowed: [], parameters: [], steps: event }],
      [2, { modelsAllowed: [], parameters: [], steps: task }],
      [3, { modelsAllowed: [], parameters: [], steps: upstairs }],
    ]);
    const building = {
      startFloorId: 1,
      floorIds: new Set([1, 2]),
      waypoints: new Map([
        [1, new Set([10])],
        [2, new Set([20])],
      ]),
      routes: new Map<number, Set<number>>(),
      speechTextIds: new Set([5]),
      poseDefIds: new Set<number>(),
    };
    const found = validateFlowDefinition(
      def(
        { kind: 'command', id: 'a', commandId: 1 },
        { kind: 'taskStart', id: 'b', name: 'T' },
        { kind: 'command', id: 'c', commandId: 1 },
        { kind: 'command', id: 'd', commandId: 2 },
        { kind: 'taskComplete', id: 'e' },
        { kind: 'command', id: 'f', commandId: 3 },
        // The command took the robot to floor 2.
        { kind: 'moveToWaypoint', id: 'g', waypointId: 20 },
      ),
      { commands, building },
    );
    expect(found.map((i) => `${i.path}:${i.message}:${i.params?.reason ?? ''}`)).toEqual([
      'steps.0.commandId:flowValidation.commandNeedsTask:',
      'steps.3.commandId:flowValidation.taskNested:',
      'steps.5.commandId:flowValidation.commandNotHere:validation.notInBuilding',
    ]);
  });

  it("checks the building's ids, following the floor the robot is on", () => {
    const building = {
      startFloorId: 1,
      floorIds: new Set([1, 2]),
      waypoints: new Map([
        [1, new Set([10, 11])],
        [2, new Set([20])],
      ]),
      routes: new Map([
        [1, new Set([1])],
        [2, new Set<number>()],
      ]),
      speechTextIds: new Set([5]),
      poseDefIds: new Set([6]),
    };
    const d = def(
      { kind: 'moveToWaypoint', id: 'a', waypointId: 10 },
      { kind: 'followRoute', id: 'b', routeId: 1 },
      { kind: 'moveToFloor', id: 'c', floorId: 2, waypointId: 20 },
      { kind: 'moveToWaypoint', id: 'd', waypointId: 10 },
      { kind: 'followRoute', id: 'e', routeId: 1 },
      { kind: 'moveToFloor', id: 'f', floorId: 3, waypointId: 1 },
      { kind: 'speak', id: 'g', speechTextId: 4 },
      { kind: 'pose', id: 'h', target: 'arm', poseDefId: 7 },
      { kind: 'pose', id: 'i', target: 'arm', poseDefId: 6 },
    );
    expect(issues(d, { building })).toEqual([
      'steps.3.waypointId:flowValidation.notOnFloor',
      'steps.4.routeId:flowValidation.notOnFloor',
      'steps.5.floorId:validation.notInBuilding',
      'steps.6.speechTextId:validation.notInBuilding',
      'steps.7.poseDefId:validation.notInBuilding',
    ]);
  });

  it("checks a meterCheck step's item: of the building, on the floor the robot is on; needs the photo capability", () => {
    const building = {
      startFloorId: 1,
      floorIds: new Set([1, 2]),
      waypoints: new Map([
        [1, new Set([10])],
        [2, new Set([20])],
      ]),
      routes: new Map<number, Set<number>>(),
      speechTextIds: new Set<number>(),
      poseDefIds: new Set<number>(),
      checkItems: new Map([
        [30, { floorId: 1 }],
        [31, { floorId: 2 }],
      ]),
    };
    const d = def(
      { kind: 'meterCheck', id: 'a', checkItemId: 30 },
      { kind: 'meterCheck', id: 'b', checkItemId: 31 },
      { kind: 'meterCheck', id: 'c', checkItemId: 99 },
      { kind: 'moveToFloor', id: 'd', floorId: 2, waypointId: 20 },
      { kind: 'meterCheck', id: 'e', checkItemId: 31, camera: 'g1' },
    );
    expect(issues(d, { building })).toEqual([
      'steps.1.checkItemId:flowValidation.notOnFloor',
      'steps.2.checkItemId:validation.notInBuilding',
    ]);
    expect(messages(flowDefinitionSchema.safeParse(def({ kind: 'meterCheck', id: 'x', checkItemId: 0 })))).toEqual([
      'steps.0.checkItemId:validation.range',
    ]);
    expect(flowMoves(def({ kind: 'meterCheck', id: 'a', checkItemId: 30 }))).toBe(true);
    expect(DEFAULT_ERROR_POLICY.meterCheck).toEqual({ policy: 'skip' });
  });

  it('tells flows that move from flows that do not', () => {
    expect(flowMoves(def({ kind: 'speak', id: 'a', speechTextId: 1 }))).toBe(false);
    expect(
      flowMoves(def({ kind: 'loop', id: 'a', count: 1, steps: [{ kind: 'followRoute', id: 'b', routeId: 1 }] })),
    ).toBe(true);
  });
});

describe('flow and command inputs', () => {
  it('checks a flow: name required and at most 24, building, floor and definition required', () => {
    expect(
      messages(flowInputSchema.safeParse({ name: 'x'.repeat(25), description: '', flowGroupId: null, enabled: true })),
    ).toEqual([
      'name:validation.max24',
      'buildingId:validation.number',
      'floorId:validation.number',
      'definition:validation.required',
    ]);
  });

  it('checks a command: name at most 64, category and scope codes, unique parameter names and models', () => {
    const r = commandInputSchema.safeParse({
      name: 'x'.repeat(65),
      description: '',
      category: 150,
      scope: 5,
      modelsAllowed: ['pro', 'pro'],
      parameters: [
        { name: 'a', type: 'number', preset: 1 },
        { name: 'a', type: 'number', preset: 2, min: 5, max: 1 },
      ],
      definition: def({ kind: 'returnToCharger', id: 'a' }),
      status: 1,
    });
    expect(messages(r)).toEqual([
      'name:validation.max64',
      'category:validation.invalid',
      'scope:validation.invalid',
      'modelsAllowed:validation.duplicate',
      'parameters.1.max:validation.range',
      'parameters:validation.duplicate',
    ]);
  });
});
