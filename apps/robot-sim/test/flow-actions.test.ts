import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  robotPhotoMessageSchema,
  type ActionState,
  type KnownRobotModel,
  type VdaAction,
  type VdaState,
} from '@portal/contract';
import {
  PLAY_AUDIO_SECONDS,
  RobotFeatures,
  SIMULATED_FAILURE,
  type FeatureHost,
  type FeatureOptions,
} from '../src/features.ts';
import { RobotCore, startRobot, TICK_MS, type PublishTopic, type SimRobot } from '../src/index.ts';
import { advanceUntil, header, lineOrder, manualTime, Master, startBroker } from './helpers.ts';

/**
 * Flow actions (issue 13): the robot features as node actions of an order, with VDA 5050 blocking
 * semantics, the new custom actions (playAudio, setFace, setPose, setCamera, setSafetyMargin,
 * detectPerson) and the simulated failure rate. Time only moves when the test moves it.
 */

type Params = Record<string, string | number | boolean>;

let seq = 0;
const action = (
  actionType: string,
  params: Params = {},
  blockingType: VdaAction['blockingType'] = 'HARD',
  actionId = `${actionType}-${++seq}`,
): VdaAction => ({
  actionType,
  actionId,
  blockingType,
  actionParameters: Object.entries(params).map(([key, value]) => ({ key, value })),
});

// ---------------------------------------------------------------- RobotFeatures alone

function fakeHost(): FeatureHost & { photos: string[] } {
  let headerId = 0;
  const h = {
    photos: [] as string[],
    battery: () => 80,
    capture: () => ({ png: Buffer.from('\x89PNG fake'), width: 64, height: 32 }),
    publishPhoto: (payload: string) => void h.photos.push(payload),
    header: () => ({
      headerId: ++headerId,
      timestamp: new Date().toISOString(),
      version: '2.1.0',
      manufacturer: 'sim',
      serialNumber: 'FA1',
    }),
    restart: () => undefined,
    changed: () => undefined,
  };
  return h;
}

function features(model: KnownRobotModel, options: FeatureOptions = {}) {
  const host = fakeHost();
  const f = new RobotFeatures(model, host, options);
  const act = (type: string, params: Params = {}): ActionState => {
    const a = action(type, params, 'NONE');
    const st: ActionState = { actionId: a.actionId, actionType: type, actionStatus: 'WAITING' };
    f.instant(a, st);
    return st;
  };
  return { f, host, act };
}

// ---------------------------------------------------------------- RobotCore on a hand-driven clock

function core(model: KnownRobotModel, opts: FeatureOptions & { start?: { x: number; y: number } } = {}) {
  const out: Array<{ topic: PublishTopic; payload: string }> = [];
  const serialNumber = `FA-${model}-${++seq}`;
  const c = new RobotCore(
    {
      manufacturer: 'sim',
      serialNumber,
      model,
      version: '2.1.0',
      mapId: 'floor-1',
      start: { x: opts.start?.x ?? 1, y: opts.start?.y ?? 1, theta: 0 },
      battery: 80,
      visualizationHz: 0,
      stateIntervalMs: 1000,
      chargers: [],
      speedScale: 1,
      actionTypes: [],
      actionFailRate: opts.actionFailRate,
      personDetectionSeconds: opts.personDetectionSeconds,
    },
    (topic, payload) => out.push({ topic, payload }),
  );
  let now = 0;
  c.tick(now, '');
  const status = (id: string) => c.state().actionStates.find((s) => s.actionId === id);
  return {
    core: c,
    out,
    serialNumber,
    status,
    photos: () =>
      out.filter((e) => e.topic === 'photo').map((e) => robotPhotoMessageSchema.parse(JSON.parse(e.payload))),
    /** One tick of TICK_MS (real = simulated time at speed scale 1). */
    tick() {
      c.tick((now += TICK_MS), '');
    },
    /** Ticks until the state satisfies `until` (at most `limit` ticks), calling `each` before every tick. */
    run(until: (s: VdaState) => boolean, each?: (s: VdaState) => void, limit = 2000): VdaState {
      for (let i = 0; i < limit; i++) {
        const s = c.state();
        if (until(s)) return s;
        each?.(s);
        c.tick((now += TICK_MS), '');
      }
      throw new Error(`not reached in ${limit} ticks: ${JSON.stringify(c.state().actionStates)}`);
    },
    order(orderId: string, points: Array<[number, number]>, nodeActions: Record<number, VdaAction[]>) {
      c.handleOrder(JSON.stringify(lineOrder(serialNumber, orderId, points, { nodeActions })));
    },
    instant(a: VdaAction) {
      c.handleInstantActions(JSON.stringify({ ...header(serialNumber), actions: [a] }));
    },
  };
}

const over = (st: ActionState | undefined) => st?.actionStatus === 'FINISHED' || st?.actionStatus === 'FAILED';

// ---------------------------------------------------------------- node actions over MQTT

describe('a takePhoto node action (HARD) over MQTT', () => {
  let broker: { url: string; close: () => Promise<void> };
  let master: Master;
  const robots: SimRobot[] = [];

  beforeAll(async () => {
    broker = await startBroker();
    master = await Master.connect(broker.url);
  });
  afterEach(async () => {
    await Promise.all(robots.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await master.close();
    await broker.close();
  });

  it('keeps the robot on the node until FINISHED and uploads the photo with its actionId', async () => {
    const { clock, ticker } = manualTime();
    const r = await startRobot({
      brokerUrl: broker.url,
      username: 'robot',
      password: 'secret',
      manufacturer: 'sim',
      serialNumber: 'FLOW-PHOTO-1',
      model: 'ex',
      mapId: 'floor-1',
      start: { x: 1, y: 1, theta: 0 },
      visualizationHz: 0,
      ticker,
    });
    robots.push(r);
    const photo = action('takePhoto', { camera: 'g1', resolution: '4k' }, 'HARD', 'photo-at-n2');
    const order = lineOrder(
      r.serialNumber,
      'flow-photo',
      [
        [1, 1],
        [3, 1],
        [3, 3],
      ],
      { nodeActions: { 1: [photo] } },
    );
    await master.send('sim', r.serialNumber, 'order', order);
    await r.waitFor((s) => s.orderId === 'flow-photo');

    const atNode = advanceUntil(clock, r, (s) => s.lastNodeId === 'n2');
    const stOf = (s: VdaState) => s.actionStates.find((a) => a.actionId === 'photo-at-n2');
    expect(stOf(atNode)?.actionStatus).toBe('RUNNING');
    // While the photo is RUNNING the robot stands on n2.
    let heldTicks = 0;
    const finished = advanceUntil(clock, r, (s) => {
      if (stOf(s)?.actionStatus !== 'RUNNING') return true;
      heldTicks++;
      expect(s.agvPosition).toMatchObject({ x: 3, y: 1 });
      expect(s.driving).toBe(false);
      expect(s.nodeStates.map((n) => n.nodeId)).toEqual(['n3']);
      return false;
    });
    expect(heldTicks).toBeGreaterThan(1);
    expect(stOf(finished)?.actionStatus).toBe('FINISHED');

    const msg = await master.waitFor((m) => m.kind === 'photo' && m.msg.actionId === 'photo-at-n2');
    expect(robotPhotoMessageSchema.parse(msg.msg)).toMatchObject({ camera: 'g1', serialNumber: 'FLOW-PHOTO-1' });

    // Then it drives on to the end.
    const done = advanceUntil(clock, r, (s) => s.lastNodeId === 'n3' && s.nodeStates.length === 0 && !s.driving);
    expect(done.agvPosition).toMatchObject({ x: 3, y: 3 });
  });
});

// ---------------------------------------------------------------- node actions in the core

describe('feature node actions', () => {
  const points: Array<[number, number]> = [
    [1, 1],
    [2.5, 1],
    [2.5, 2.5],
  ];

  it('run in order on the node; the robot leaves once the last HARD one has ended', () => {
    const r = core('ex', { personDetectionSeconds: 1.5 });
    const speak = action('speak', { text: 'Patrol point one', language: 'en' });
    const photo = action('takePhoto', { camera: 'v1' });
    const face = action('setFace', { expression: 'smile', text: 'Hello' });
    const detect = action('detectPerson', { camera: 'v1', distanceM: 2, timeoutS: 30 });
    const ids = [speak, photo, face, detect].map((a) => a.actionId);
    r.order('o-seq', points, { 1: [speak, photo, face, detect] });

    r.run((s) => s.lastNodeId === 'n2');
    const started: string[] = [];
    const done = r.run(
      (s) => ids.every((id) => over(s.actionStates.find((a) => a.actionId === id))) && s.driving,
      (s) => {
        const running = s.actionStates.filter((a) => ids.includes(a.actionId) && a.actionStatus === 'RUNNING');
        // HARD: one at a time, and the robot stays on n2 meanwhile.
        expect(running.length).toBeLessThanOrEqual(1);
        for (const a of running) if (started.at(-1) !== a.actionId) started.push(a.actionId);
        if (running.length > 0) expect(s.agvPosition).toMatchObject({ x: 2.5, y: 1 });
      },
    );
    // setFace finishes at once (never seen RUNNING); the others run in the order given.
    expect(started).toEqual([speak.actionId, photo.actionId, detect.actionId]);
    for (const id of ids) expect(r.status(id)?.actionStatus, id).toBe('FINISHED');
    expect(r.status(detect.actionId)?.resultDescription).toBe('Person detected within 2 m');
    expect(r.core.features.settings().face).toEqual({ expression: 'smile', text: 'Hello' });
    expect(r.photos().map((p) => p.actionId)).toEqual([photo.actionId]);
    expect(done.lastNodeId).toBe('n2');
    r.run((s) => s.lastNodeId === 'n3' && s.nodeStates.length === 0);
  });

  it('a NONE one runs on while the robot drives on; a SOFT one holds the robot', () => {
    const r = core('mini');
    const audio = action('playAudio', { audio: 'chime.wav', volume: 40 }, 'NONE');
    r.order('o-none', points, { 1: [audio] });
    r.run((s) => s.lastNodeId === 'n2');
    const driving = r.run((s) => s.driving);
    expect(r.status(audio.actionId)?.actionStatus).toBe('RUNNING');
    expect(driving.lastNodeId).toBe('n2');
    r.run((s) => over(s.actionStates.find((a) => a.actionId === audio.actionId)));
    expect(r.status(audio.actionId)?.actionStatus).toBe('FINISHED');

    const soft = core('mini');
    const held = action('playAudio', { audio: 'chime.wav' }, 'SOFT');
    soft.order('o-soft', points, { 1: [held] });
    soft.run((s) => s.lastNodeId === 'n2');
    soft.run(
      (s) => s.driving,
      (s) => {
        if (s.lastNodeId === 'n2')
          expect(s.actionStates.find((a) => a.actionId === held.actionId)?.actionStatus).not.toBe('WAITING');
      },
    );
    expect(soft.status(held.actionId)?.actionStatus).toBe('FINISHED');
  });

  it('FAIL with a resultDescription when the model lacks them, and the robot goes on', () => {
    const r = core('mini');
    const jog = action('gimbalJog', { pan: 5, tilt: 0 });
    const pose = action('setPose', { target: 'gimbal', pan: 10 });
    const call = action('answerCall');
    r.order('o-lacks', points, { 1: [jog, pose, call] });
    r.run((s) => s.lastNodeId === 'n3' && s.nodeStates.length === 0 && !s.driving);
    expect(r.status(jog.actionId)).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: "Unknown action type 'gimbalJog'",
    });
    expect(r.status(pose.actionId)).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'The mini model has no gimbal',
    });
    // An operator-only action is no node action.
    expect(r.status(call.actionId)).toMatchObject({ actionStatus: 'FAILED' });
  });

  it('a running one FAILS with the order on cancelOrder', () => {
    const r = core('ex', { personDetectionSeconds: null });
    const detect = action('detectPerson', { camera: 'g1', distanceM: 1.5, timeoutS: 0 });
    r.order('o-cancel', points, { 1: [detect] });
    r.run((s) => s.lastNodeId === 'n2');
    for (let i = 0; i < 20; i++) r.tick();
    expect(r.status(detect.actionId)?.actionStatus).toBe('RUNNING');
    r.instant(action('cancelOrder'));
    expect(r.status(detect.actionId)).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'Order cancelled' });
    expect(r.core.features.pending()).toEqual([]);
  });

  it('the factsheet announces the flow actions with scopes INSTANT and NODE, operator ones INSTANT', () => {
    const r = core('pro');
    r.core.publishFactsheet();
    const fs = JSON.parse(r.out.filter((e) => e.topic === 'factsheet').at(-1)!.payload) as {
      protocolFeatures: { agvActions: Array<{ actionType: string; actionScopes: string[] }> };
    };
    const scopes = Object.fromEntries(fs.protocolFeatures.agvActions.map((a) => [a.actionType, a.actionScopes]));
    for (const t of [
      'speak',
      'takePhoto',
      'startRecording',
      'stopRecording',
      'setPeriscopeHeight',
      'setRingLight',
      'setAudio',
      'playAudio',
      'setFace',
      'setPose',
      'setCamera',
      'setSafetyMargin',
      'detectPerson',
    ]) {
      expect(scopes[t], t).toEqual(['INSTANT', 'NODE']);
    }
    for (const t of ['answerCall', 'endCall', 'osUpdate']) expect(scopes[t], t).toEqual(['INSTANT']);
  });
});

// ---------------------------------------------------------------- the new actions

describe('the new flow actions', () => {
  const failed = (st: ActionState, description: RegExp | string) => {
    expect(st.actionStatus).toBe('FAILED');
    if (typeof description === 'string') expect(st.resultDescription).toBe(description);
    else expect(st.resultDescription).toMatch(description);
  };

  it('playAudio runs, then FINISHES; bad parameters FAIL', () => {
    const { f, act } = features('mini');
    const st = act('playAudio', { audio: 'announcement.mp3', volume: '70' });
    expect(st.actionStatus).toBe('RUNNING');
    expect(f.pending()).toContain(st);
    f.step(PLAY_AUDIO_SECONDS / 2);
    expect(st.actionStatus).toBe('RUNNING');
    f.step(PLAY_AUDIO_SECONDS);
    expect(st.actionStatus).toBe('FINISHED');
    failed(act('playAudio', {}), /audio is missing/);
    failed(act('playAudio', { audio: 'a.mp3', volume: '101' }), /volume must be an integer from 0 to 100/);
  });

  it('setFace FINISHES with the expression shown; an unknown one FAILS', () => {
    const { f, act } = features('ex');
    expect(act('setFace', { expression: 'sleep' }).actionStatus).toBe('FINISHED');
    expect(f.settings().face).toEqual({ expression: 'sleep', text: null });
    failed(act('setFace', { expression: 'angry' }), /expression must be one of normal, smile/);
    failed(act('setFace', { expression: 'smile', text: 'x'.repeat(101) }), /text is too long/);
    expect(f.settings().face.expression).toBe('sleep');
  });

  it('setPose: absolute gimbal angles (clamped), periscope and arm pose definitions; FAILED without the hardware', () => {
    const ex = features('ex');
    expect(ex.act('setPose', { target: 'gimbal', pan: '30', tilt: '10' }).actionStatus).toBe('FINISHED');
    expect(ex.f.info().gimbal).toEqual({ pan: 30, tilt: 10 });
    ex.act('setPose', { target: 'gimbal', pan: '30' }); // absolute: stays at 30
    expect(ex.f.info().gimbal).toEqual({ pan: 30, tilt: 10 });
    const limited = ex.act('setPose', { target: 'gimbal', pan: '-180', tilt: '90' });
    expect(limited).toMatchObject({
      actionStatus: 'FINISHED',
      resultDescription: 'Gimbal at its limit: pan -170°, tilt 60°',
    });
    failed(ex.act('setPose', { target: 'gimbal' }), /pan, tilt or poseDefId is missing/);
    failed(ex.act('setPose', { target: 'periscope', poseDefId: '2' }), 'The ex model has no periscope');
    failed(ex.act('setPose', { target: 'arm', poseDefId: '2' }), 'The ex model has no arm');
    failed(ex.act('setPose', { target: 'tail' }), /target must be one of gimbal, periscope, arm/);

    const pro = features('pro');
    expect(pro.act('setPose', { target: 'arm', poseDefId: '7' }).actionStatus).toBe('FINISHED');
    expect(pro.act('setPose', { target: 'periscope', poseDefId: '8' }).actionStatus).toBe('FINISHED');
    expect(pro.f.settings().poses).toEqual({ gimbal: null, periscope: 8, arm: 7 });
    failed(pro.act('setPose', { target: 'arm' }), /poseDefId is missing/);
    failed(pro.act('setPose', { target: 'gimbal', pan: '1' }), 'The pro model has no gimbal');
  });

  it('setCamera and setSafetyMargin FINISH within their ranges and FAIL outside', () => {
    const { f, act } = features('ex');
    expect(act('setCamera', { camera: 'g1', zoom: '12.5' }).actionStatus).toBe('FINISHED');
    expect(act('setCamera', { camera: 'v1' }).actionStatus).toBe('FINISHED');
    expect(f.settings().zoom).toEqual({ g1: 12.5 });
    failed(act('setCamera', { camera: 'g1', zoom: '31' }), /zoom must be a number from 1 to 30/);
    failed(act('setCamera', { camera: 's1', zoom: '2' }), /not one of this robot's cameras/);
    expect(act('setCamera', { camera: 'thermal', colorMap: 'ir' }).actionStatus).toBe('FINISHED');
    expect(f.view().thermal.colorMap).toBe('ir');
    failed(act('setCamera', { camera: 'g1', colorMap: 'mono' }), /colorMap is for the thermal camera only/);
    failed(act('setCamera', { camera: 'thermal', colorMap: 'rainbow' }), /colorMap must be one of normal, mono, ir/);

    expect(act('setSafetyMargin', { meters: '0.8' }).actionStatus).toBe('FINISHED');
    expect(f.settings().safetyMargin).toBe(0.8);
    failed(act('setSafetyMargin', { meters: '0.05' }), /meters must be a number from 0.1 to 2/);
    failed(act('setSafetyMargin', { meters: '2.5' }), /meters must be a number from 0.1 to 2/);
    failed(act('setSafetyMargin', {}), /meters is missing/);
    expect(f.settings().safetyMargin).toBe(0.8);
  });

  it('detectPerson FINISHES when a person comes in range, FAILS timeout when none comes in time', () => {
    // A person after 2 s, timeout 10 s.
    const soon = features('ex', { personDetectionSeconds: 2 });
    const found = soon.act('detectPerson', { camera: 'g1', distanceM: '3', timeoutS: '10' });
    expect(found.actionStatus).toBe('RUNNING');
    soon.f.step(1.5);
    expect(found.actionStatus).toBe('RUNNING');
    soon.f.step(1);
    expect(found).toMatchObject({ actionStatus: 'FINISHED', resultDescription: 'Person detected within 3 m' });

    // A person after 5 s, timeout 3 s: timeout.
    const late = features('ex', { personDetectionSeconds: 5 });
    const timedOut = late.act('detectPerson', { camera: 'v1', distanceM: '2', timeoutS: '3' });
    late.f.step(2.5);
    expect(timedOut.actionStatus).toBe('RUNNING');
    late.f.step(1);
    expect(timedOut).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'timeout' });

    // Nobody ever, no timeout: RUNNING until the order gives it up.
    const never = features('ex', { personDetectionSeconds: null });
    const waiting = never.act('detectPerson', { camera: 'v1', distanceM: '2', timeoutS: '0' });
    never.f.step(3600);
    expect(waiting.actionStatus).toBe('RUNNING');
    expect(never.f.abort(waiting, 'Order cancelled')).toBe(true);
    expect(waiting).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'Order cancelled' });

    // The default: a random time from 1 to 4 s.
    const early = features('ex', { random: () => 0 });
    const first = early.act('detectPerson', { camera: 'v1', distanceM: '1', timeoutS: '0' });
    early.f.step(0.9);
    expect(first.actionStatus).toBe('RUNNING');
    early.f.step(0.2);
    expect(first.actionStatus).toBe('FINISHED');
    const lateDefault = features('ex', { random: () => 0.999 });
    const last = lateDefault.act('detectPerson', { camera: 'v1', distanceM: '1', timeoutS: '0' });
    lateDefault.f.step(3.9);
    expect(last.actionStatus).toBe('RUNNING');
    lateDefault.f.step(0.2);
    expect(last.actionStatus).toBe('FINISHED');

    failed(soon.act('detectPerson', { camera: 'v1', distanceM: '0', timeoutS: '5' }), /distanceM must be above 0/);
    failed(soon.act('detectPerson', { camera: 'v1', distanceM: '2' }), /timeoutS is missing/);
    failed(
      soon.act('detectPerson', { camera: 's1', distanceM: '2', timeoutS: '5' }),
      /not one of this robot's cameras/,
    );
  });

  it('startRecording takes an optional quality (low, high)', () => {
    const { act } = features('mini');
    failed(act('startRecording', { quality: 'ultra' }), /quality must be one of low, high/);
    expect(act('startRecording', { quality: 'high' }).actionStatus).toBe('RUNNING');
  });

  it('takePhoto takes an optional resolution (720p, 1080p, 4k)', () => {
    const { f, act, host } = features('mini');
    const st = act('takePhoto', { camera: 'v1', resolution: '1080p' });
    f.step(1.1);
    expect(st.actionStatus).toBe('FINISHED');
    expect(host.photos).toHaveLength(1);
    failed(act('takePhoto', { camera: 'v1', resolution: '8k' }), /resolution must be one of 720p, 1080p, 4k/);
  });
});

// ---------------------------------------------------------------- simulated failures

describe('actionFailRate', () => {
  it('1: every flow action FAILS with "simulated failure", as instant and as node action', () => {
    const { act } = features('ex', { actionFailRate: 1 });
    for (const [type, params] of [
      ['speak', { text: 'hello' }],
      ['takePhoto', { camera: 'v1' }],
      ['setRingLight', { on: 'true' }],
      ['playAudio', { audio: 'a.mp3' }],
      ['setFace', { expression: 'smile' }],
      ['setPose', { target: 'gimbal', pan: '10' }],
      ['setCamera', { camera: 'g1', zoom: '2' }],
      ['setSafetyMargin', { meters: '0.5' }],
      ['detectPerson', { camera: 'v1', distanceM: '2', timeoutS: '5' }],
    ] as const) {
      expect(act(type, params), type).toMatchObject({ actionStatus: 'FAILED', resultDescription: SIMULATED_FAILURE });
    }
    // Operator-only actions are not flow actions: they behave as usual.
    expect(act('answerCall').resultDescription).toBe('No call to answer (call is idle)');

    const r = core('ex', { actionFailRate: 1 });
    const photo = action('takePhoto', { camera: 'v1' });
    r.order(
      'o-fail',
      [
        [1, 1],
        [2, 1],
      ],
      { 1: [photo] },
    );
    r.run((s) => s.lastNodeId === 'n2' && s.nodeStates.length === 0 && !s.driving);
    expect(r.status(photo.actionId)).toMatchObject({ actionStatus: 'FAILED', resultDescription: SIMULATED_FAILURE });
    expect(r.photos()).toEqual([]);
    // The retry the runner sends, as an instant action, fails the same way.
    const retry = action('takePhoto', { camera: 'v1' }, 'NONE');
    r.instant(retry);
    expect(r.status(retry.actionId)).toMatchObject({ actionStatus: 'FAILED', resultDescription: SIMULATED_FAILURE });
  });

  it('0 (the default): nothing fails by chance', () => {
    const { f, act } = features('ex', { actionFailRate: 0, random: () => 0 });
    expect(act('setFace', { expression: 'blink' }).actionStatus).toBe('FINISHED');
    const photo = act('takePhoto', { camera: 'v1' });
    f.step(1.1);
    expect(photo.actionStatus).toBe('FINISHED');
  });
});
