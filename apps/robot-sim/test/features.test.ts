import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import addFormats from 'ajv-formats';
import {
  FACTSHEET_CAMERAS_KEY,
  factsheetSchema,
  OS_UPDATE_ACTION,
  parseTeleopInfo,
  robotPhotoMessageSchema,
  VDA_VERSIONS,
  type ActionState,
  type CameraId,
  type RecordingState,
  type KnownRobotModel,
  type VdaAction,
  type VdaVersion,
} from '@portal/contract';
import {
  CALL_RING_SECONDS,
  INITIAL_OS_VERSION,
  nextOsVersion,
  OS_UPDATE_DOWNLOAD_SECONDS,
  OS_UPDATE_RESTART_MS,
  PHOTO_CAPTURE_SECONDS,
  RECORDING_PREPARE_SECONDS,
  RobotFeatures,
  type FeatureHost,
} from '../src/features.ts';
import { RobotCore, type PublishTopic } from '../src/index.ts';
import { MODEL_SPECS } from '../src/models.ts';
import { PHOTO_HEIGHT, PHOTO_WIDTH } from '../src/photo.ts';

// ---------------------------------------------------------------- a RobotFeatures with a fake host

interface FakeHost extends FeatureHost {
  level: number;
  restarts: number[];
  photos: string[];
  captures: CameraId[];
  changes: number;
}

function fakeHost(battery = 80): FakeHost {
  let headerId = 0;
  const h: FakeHost = {
    level: battery,
    restarts: [],
    photos: [],
    captures: [],
    changes: 0,
    battery: () => h.level,
    capture: (camera) => {
      h.captures.push(camera);
      return { png: Buffer.from('\x89PNG fake'), width: 64, height: 32 };
    },
    publishPhoto: (payload) => h.photos.push(payload),
    header: () => ({
      headerId: ++headerId,
      timestamp: new Date().toISOString(),
      version: '2.1.0',
      manufacturer: 'sim',
      serialNumber: 'F1',
    }),
    restart: (downMs) => h.restarts.push(downMs),
    changed: () => {
      h.changes += 1;
    },
  };
  return h;
}

let actionSeq = 0;
/** Runs one instant action (parameters as the portal sends them: strings) and returns its state. */
function act(f: RobotFeatures, actionType: string, params: Record<string, string> = {}): ActionState {
  const a: VdaAction = {
    actionType,
    actionId: `${actionType}-${++actionSeq}`,
    blockingType: 'NONE',
    actionParameters: Object.entries(params).map(([key, value]) => ({ key, value })),
  };
  const st: ActionState = { actionId: a.actionId, actionType, actionStatus: 'FINISHED' };
  f.instant(a, st);
  return st;
}

function features(model: KnownRobotModel = 'ex', battery = 80): { f: RobotFeatures; host: FakeHost } {
  const host = fakeHost(battery);
  return { f: new RobotFeatures(model, host), host };
}

/** Steps `seconds` in small steps, recording every recording state seen. */
function run(f: RobotFeatures, seconds: number, seen: RecordingState[] = []): RecordingState[] {
  for (let t = 0; t < seconds; t += 0.1) {
    f.step(0.1);
    const r = f.info().recording;
    if (seen.at(-1) !== r) seen.push(r);
  }
  return seen;
}

// ---------------------------------------------------------------- a RobotCore collecting what it emits

interface Emitted {
  topic: PublishTopic;
  payload: string;
}

function core(model: KnownRobotModel, opts: { battery?: number; version?: VdaVersion } = {}) {
  const out: Emitted[] = [];
  const restarts: number[] = [];
  const version = opts.version ?? '2.1.0';
  const c = new RobotCore(
    {
      manufacturer: 'sim',
      serialNumber: `F-${model}`,
      model,
      version,
      mapId: 'floor-1',
      start: { x: 1, y: 1, theta: 0 },
      battery: opts.battery ?? 80,
      visualizationHz: 0,
      stateIntervalMs: 1000,
      chargers: [],
      speedScale: 10,
      actionTypes: [],
      onRestart: (ms) => restarts.push(ms),
    },
    (topic, payload) => out.push({ topic, payload }),
  );
  let now = 1000;
  c.tick(now, new Date().toISOString());
  let id = 0;
  return {
    core: c,
    out,
    restarts,
    /** Simulated seconds (100 ms real ticks at speedScale 10: 1 s each). */
    tick(seconds: number) {
      for (let i = 0; i < Math.ceil(seconds); i++) c.tick((now += 100), new Date().toISOString());
    },
    instant(actionType: string, params: Record<string, string> = {}): string {
      const actionId = `${actionType}-${++id}`;
      c.handleInstantActions(
        JSON.stringify({
          headerId: id,
          timestamp: new Date().toISOString(),
          version,
          manufacturer: 'sim',
          serialNumber: `F-${model}`,
          actions: [
            {
              actionType,
              actionId,
              blockingType: 'NONE',
              actionParameters: Object.entries(params).map(([key, value]) => ({ key, value })),
            },
          ],
        }),
      );
      return actionId;
    },
    status(actionId: string): ActionState | undefined {
      return c.state().actionStates.find((s) => s.actionId === actionId);
    },
    info() {
      return parseTeleopInfo(c.state().information)!;
    },
    factsheet(): Record<string, unknown> {
      c.publishFactsheet();
      const fs = out.filter((e) => e.topic === 'factsheet').at(-1)!;
      return JSON.parse(fs.payload) as Record<string, unknown>;
    },
  };
}

const agvActions = (fs: Record<string, unknown>) =>
  (fs.protocolFeatures as { agvActions: Array<{ actionType: string }> }).agvActions.map((a) => a.actionType);

// ---------------------------------------------------------------- recording

describe('long-term recording', () => {
  it('goes preparing -> started -> compressing -> saved -> uploading -> uploaded', () => {
    const { f } = features('mini');
    expect(f.info().recording).toBe('idle');
    const start = act(f, 'startRecording');
    expect(start.actionStatus).toBe('RUNNING');
    expect(f.info().recording).toBe('preparing');

    const seen = run(f, RECORDING_PREPARE_SECONDS + 0.5, ['preparing']);
    expect(seen).toEqual(['preparing', 'started']);
    expect(start.actionStatus).toBe('FINISHED');

    const stop = act(f, 'stopRecording');
    expect(stop.actionStatus).toBe('RUNNING');
    expect(f.info().recording).toBe('compressing');
    const after = run(f, 10, ['compressing']);
    expect(after).toEqual(['compressing', 'saved', 'uploading', 'uploaded']);
    expect(stop.actionStatus).toBe('FINISHED');
    // It stays uploaded until the next recording, which prepares again.
    run(f, 60);
    expect(f.info().recording).toBe('uploaded');
    expect(act(f, 'startRecording').actionStatus).toBe('RUNNING');
    expect(f.info().recording).toBe('preparing');
  });

  it('finishes stopRecording once saved (not when uploaded)', () => {
    const { f } = features('pro');
    act(f, 'startRecording');
    run(f, RECORDING_PREPARE_SECONDS + 0.5);
    const stop = act(f, 'stopRecording');
    for (let i = 0; i < 200 && f.info().recording !== 'saved'; i++) {
      expect(stop.actionStatus).toBe('RUNNING');
      f.step(0.05);
    }
    expect(f.info().recording).toBe('saved');
    expect(stop.actionStatus).toBe('FINISHED');
  });

  it('refuses a second start (recordingAlreadyStarted) and a stop without a recording (recordingNotStarted)', () => {
    const { f } = features('ex');
    const notStarted = act(f, 'stopRecording');
    expect(notStarted).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'recordingNotStarted' });

    act(f, 'startRecording');
    expect(act(f, 'startRecording')).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'recordingAlreadyStarted',
    }); // while preparing
    run(f, RECORDING_PREPARE_SECONDS + 0.5);
    expect(act(f, 'startRecording').resultDescription).toBe('recordingAlreadyStarted'); // started
    expect(f.info().recording).toBe('started');

    act(f, 'stopRecording');
    expect(act(f, 'stopRecording')).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'recordingNotStarted' });
    run(f, 10);
    expect(act(f, 'stopRecording').resultDescription).toBe('recordingNotStarted'); // uploaded
  });

  it('carries large steps through several states at once', () => {
    const { f } = features('mini');
    act(f, 'startRecording');
    f.step(100);
    expect(f.info().recording).toBe('started');
    act(f, 'stopRecording');
    f.step(100);
    expect(f.info().recording).toBe('uploaded');
  });

  it('reports the recording in the state through the core', () => {
    const r = core('pro');
    const id = r.instant('startRecording');
    expect(r.status(id)?.actionStatus).toBe('RUNNING');
    expect(r.info().recording).toBe('preparing');
    r.tick(RECORDING_PREPARE_SECONDS + 1);
    expect(r.info().recording).toBe('started');
    expect(r.status(id)?.actionStatus).toBe('FINISHED');
    const again = r.instant('startRecording');
    expect(r.status(again)).toMatchObject({ actionStatus: 'FAILED', resultDescription: 'recordingAlreadyStarted' });
  });
});

// ---------------------------------------------------------------- OS update

describe('OS update', () => {
  it('is refused below 20% battery', () => {
    const { f, host } = features('pro', 19.9);
    const st = act(f, OS_UPDATE_ACTION);
    expect(st).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'Battery must be at least 20% for OS update',
    });
    expect(f.info().updating).toBe(false);
    f.step(30);
    expect(host.restarts).toEqual([]);
    expect(f.info().osVersion).toBe(INITIAL_OS_VERSION);
  });

  it('at 20% downloads, restarts the robot and comes back with the next version', () => {
    const { f, host } = features('mini', 20);
    const st = act(f, OS_UPDATE_ACTION);
    expect(st.actionStatus).toBe('RUNNING');
    expect(f.info().updating).toBe(true);
    expect(act(f, OS_UPDATE_ACTION)).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'OS update already running',
    });
    f.step(OS_UPDATE_DOWNLOAD_SECONDS / 2);
    expect(host.restarts).toEqual([]);
    expect(st.actionStatus).toBe('RUNNING');
    f.step(OS_UPDATE_DOWNLOAD_SECONDS);
    expect(host.restarts).toEqual([OS_UPDATE_RESTART_MS]);
    expect(st.actionStatus).toBe('FINISHED');
    expect(f.info()).toMatchObject({ updating: false, osVersion: '2.4.1' });
    // Another update bumps again.
    act(f, OS_UPDATE_ACTION);
    f.step(OS_UPDATE_DOWNLOAD_SECONDS + 0.1);
    expect(f.info().osVersion).toBe('2.4.2');
    expect(host.restarts).toHaveLength(2);
  });

  it('runs through the core: battery check, onRestart, state', () => {
    const low = core('ex', { battery: 15 });
    const refused = low.instant(OS_UPDATE_ACTION);
    expect(low.status(refused)).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'Battery must be at least 20% for OS update',
    });
    low.tick(10);
    expect(low.restarts).toEqual([]);

    const ok = core('ex', { battery: 60 });
    const id = ok.instant(OS_UPDATE_ACTION);
    expect(ok.status(id)?.actionStatus).toBe('RUNNING');
    expect(ok.info().updating).toBe(true);
    ok.tick(OS_UPDATE_DOWNLOAD_SECONDS + 1);
    expect(ok.restarts).toEqual([OS_UPDATE_RESTART_MS]);
    expect(ok.status(id)?.actionStatus).toBe('FINISHED');
    expect(ok.info()).toMatchObject({ updating: false, osVersion: nextOsVersion(INITIAL_OS_VERSION) });
  });

  it('bumps the patch number', () => {
    expect(nextOsVersion('2.4.0')).toBe('2.4.1');
    expect(nextOsVersion('2.4.9')).toBe('2.4.10');
    expect(nextOsVersion('beta')).toBe('beta.1');
  });
});

// ---------------------------------------------------------------- call-in customer service

describe('call-in customer service', () => {
  it('calling -> conversation -> idle', () => {
    const { f } = features('mini');
    expect(f.info().call).toBe('idle');
    expect(act(f, 'answerCall')).toMatchObject({ actionStatus: 'FAILED' });
    expect(act(f, 'endCall')).toMatchObject({ actionStatus: 'FAILED' });
    expect(f.pressCallButton()).toBe(true);
    expect(f.info().call).toBe('calling');
    expect(f.pressCallButton()).toBe(false);
    expect(act(f, 'answerCall').actionStatus).toBe('FINISHED');
    expect(f.info().call).toBe('conversation');
    expect(act(f, 'answerCall')).toMatchObject({ actionStatus: 'FAILED' }); // already answered
    f.step(CALL_RING_SECONDS * 2); // a conversation does not time out
    expect(f.info().call).toBe('conversation');
    expect(act(f, 'endCall').actionStatus).toBe('FINISHED');
    expect(f.info().call).toBe('idle');
  });

  it('an operator can decline a ringing call; an unanswered one stops after 60 s', () => {
    const { f, host } = features('pro');
    f.pressCallButton();
    expect(act(f, 'endCall').actionStatus).toBe('FINISHED');
    expect(f.info().call).toBe('idle');

    f.pressCallButton();
    const before = host.changes;
    f.step(CALL_RING_SECONDS - 1);
    expect(f.info().call).toBe('calling');
    f.step(2);
    expect(f.info().call).toBe('idle');
    expect(host.changes).toBeGreaterThan(before);
    expect(act(f, 'answerCall').actionStatus).toBe('FAILED');
  });
});

// ---------------------------------------------------------------- speech

describe('speech', () => {
  it('runs while speaking, about 0.08 s per character and at least 1 s', () => {
    const { f } = features('mini');
    const short = act(f, 'speak', { text: 'Hi', language: 'en' });
    expect(short.actionStatus).toBe('RUNNING');
    expect(f.info().speaking).toBe(true);
    f.step(0.9);
    expect(short.actionStatus).toBe('RUNNING');
    f.step(0.2);
    expect(short.actionStatus).toBe('FINISHED');
    expect(f.info().speaking).toBe(false);

    const long = act(f, 'speak', { text: 'x'.repeat(50), language: 'ja' }); // 4 s
    f.step(3.8);
    expect(long.actionStatus).toBe('RUNNING');
    f.step(0.3);
    expect(long.actionStatus).toBe('FINISHED');
  });

  it('queues an utterance behind the running one; language defaults to auto', () => {
    const { f } = features('ex');
    const first = act(f, 'speak', { text: 'first', language: 'de' });
    const second = act(f, 'speak', { text: 'second' });
    expect(first.actionStatus).toBe('RUNNING');
    expect(second.actionStatus).toBe('WAITING');
    f.step(1.05);
    expect(first.actionStatus).toBe('FINISHED');
    expect(second.actionStatus).toBe('RUNNING');
    expect(f.info().speaking).toBe(true);
    f.step(1);
    expect(second.actionStatus).toBe('FINISHED');
    expect(f.info().speaking).toBe(false);
  });
});

// ---------------------------------------------------------------- settings

describe('gimbal, periscope, lights, thermal, audio', () => {
  it('jogs the gimbal within its limits and feeds the camera view', () => {
    const { f } = features('ex');
    expect(act(f, 'gimbalJog', { pan: '5', tilt: '-2.5' }).actionStatus).toBe('FINISHED');
    expect(f.info().gimbal).toEqual({ pan: 5, tilt: -2.5 });
    expect(f.view().gimbal).toEqual({ pan: 5, tilt: -2.5 });
    for (let i = 0; i < 10; i++) act(f, 'gimbalJog', { pan: '45', tilt: '45' });
    expect(f.info().gimbal).toEqual({ pan: 170, tilt: 60 });
    for (let i = 0; i < 20; i++) act(f, 'gimbalJog', { pan: '-45', tilt: '-45' });
    expect(f.info().gimbal).toEqual({ pan: -170, tilt: -30 });
  });

  it('clamps the periscope to the model height range; the camera rides on it', () => {
    const { f } = features('pro');
    const { heightMin, heightMax } = MODEL_SPECS.pro;
    expect(f.info().periscopeHeight).toBeGreaterThanOrEqual(heightMin);
    act(f, 'setPeriscopeHeight', { height: '1.5' });
    expect(f.info().periscopeHeight).toBe(1.5);
    expect(f.view().eyeHeight).toBe(1.5);
    const high = act(f, 'setPeriscopeHeight', { height: '3' });
    expect(high.actionStatus).toBe('FINISHED');
    expect(f.info().periscopeHeight).toBe(heightMax);
    act(f, 'setPeriscopeHeight', { height: '0' });
    expect(f.info().periscopeHeight).toBe(heightMin);
  });

  it('switches lights, thermal settings and audio levels', () => {
    const { f, host } = features('ex');
    expect(f.info()).toMatchObject({ ringLight: false, patrolLamp: false });
    const before = host.changes;
    act(f, 'setRingLight', { on: 'true' });
    act(f, 'setPatrolLamp', { on: 'true' });
    expect(f.info()).toMatchObject({ ringLight: true, patrolLamp: true });
    expect(host.changes).toBeGreaterThan(before);
    act(f, 'setRingLight', { on: 'false' });
    expect(f.info().ringLight).toBe(false);

    expect(act(f, 'setThermal', { colorMap: 'ir', rangeMin: '20', rangeMax: '80.5' }).actionStatus).toBe('FINISHED');
    expect(f.view().thermal).toEqual({ colorMap: 'ir', rangeMin: 20, rangeMax: 80.5 });
    f.setThermalColorMap('mono');
    expect(f.view().thermal.colorMap).toBe('mono');

    expect(act(f, 'setAudio', { speakerVolume: '0', micGain: '100' }).actionStatus).toBe('FINISHED');
    expect(f.audioLevels()).toEqual({ speakerVolume: 0, micGain: 100 });
  });

  it('fails bad parameters with a clear resultDescription and changes nothing', () => {
    const { f } = features('ex');
    const failed = (type: string, params: Record<string, string>, description: RegExp) => {
      const st = act(f, type, params);
      expect(st.actionStatus, `${type} ${JSON.stringify(params)}`).toBe('FAILED');
      expect(st.resultDescription).toMatch(description);
    };
    failed('speak', { language: 'en' }, /text is missing/);
    failed('speak', { text: '   ', language: 'en' }, /text is missing/);
    failed('speak', { text: 'x'.repeat(501), language: 'en' }, /too long/);
    failed('speak', { text: 'hello', language: 'xx' }, /language must be one of auto, ja, en/);
    failed('gimbalJog', { pan: 'left', tilt: '0' }, /pan must be a number/);
    failed('gimbalJog', { pan: '5' }, /tilt is missing/);
    failed('setRingLight', { on: 'maybe' }, /on must be true or false/);
    failed('setPatrolLamp', {}, /on is missing/);
    failed(
      'setThermal',
      { colorMap: 'rainbow', rangeMin: '0', rangeMax: '10' },
      /colorMap must be one of normal, mono, ir/,
    );
    failed(
      'setThermal',
      { colorMap: 'mono', rangeMin: '40', rangeMax: '40' },
      /rangeMin \(40\) must be below rangeMax/,
    );
    failed('setThermal', { colorMap: 'mono', rangeMin: '-100', rangeMax: '40' }, /rangeMin must be a number from -40/);
    failed('setAudio', { speakerVolume: '101', micGain: '5' }, /speakerVolume must be an integer from 0 to 100/);
    failed('setAudio', { speakerVolume: '50', micGain: '5.5' }, /micGain must be an integer/);
    failed('takePhoto', {}, /camera is missing/);
    failed('takePhoto', { camera: 's1' }, /not one of this robot's cameras \(v1, v2, g1, thermal\)/);
    expect(f.info()).toMatchObject({ speaking: false, gimbal: { pan: 0, tilt: 0 }, ringLight: false });
    expect(f.view().thermal).toEqual({ colorMap: 'normal', rangeMin: 15, rangeMax: 40 });
    expect(f.audioLevels()).toEqual({ speakerVolume: 50, micGain: 50 });
  });

  it('refuses what the model lacks when called directly', () => {
    const { f } = features('mini');
    expect(act(f, 'gimbalJog', { pan: '1', tilt: '1' })).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'Action gimbalJog is not supported by the mini model',
    });
  });
});

// ---------------------------------------------------------------- capabilities per model

describe('capabilities per model', () => {
  const common = [
    'speak',
    'startRecording',
    'stopRecording',
    'takePhoto',
    'answerCall',
    'endCall',
    'setAudio',
    OS_UPDATE_ACTION,
    'playAudio',
    'setFace',
    'setPose',
    'setCamera',
    'setSafetyMargin',
    'detectPerson',
  ];

  it('announces the model’s actions and cameras in the factsheet', () => {
    const want: Record<KnownRobotModel, { actions: string[]; cameras: CameraId[] }> = {
      pro: {
        actions: [...common, 'setPeriscopeHeight', 'setRingLight', 'takeDepthImage', 'pressButton'],
        cameras: ['v1', 'v2', 'v3', 's1'],
      },
      mini: { actions: common, cameras: ['v1', 'v2'] },
      ex: {
        actions: [...common, 'gimbalJog', 'setRingLight', 'setPatrolLamp', 'setThermal'],
        cameras: ['v1', 'v2', 'g1', 'thermal'],
      },
    };
    for (const model of ['pro', 'mini', 'ex'] as const) {
      const r = core(model);
      const fs = r.factsheet();
      expect(factsheetSchema.safeParse(fs).success).toBe(true);
      expect(fs[FACTSHEET_CAMERAS_KEY]).toEqual(want[model].cameras);
      const custom = r.core.features.actions.map((a) => a.actionType);
      expect([...custom].sort()).toEqual([...want[model].actions].sort());
      expect(agvActions(fs)).toEqual(expect.arrayContaining(custom));
      const all = ['gimbalJog', 'setPeriscopeHeight', 'setRingLight', 'setPatrolLamp', 'setThermal'];
      for (const t of all.filter((a) => !want[model].actions.includes(a))) expect(agvActions(fs)).not.toContain(t);
    }
  });

  it('reports null for the hardware a model lacks', () => {
    expect(core('mini').info()).toMatchObject({
      ringLight: null,
      patrolLamp: null,
      periscopeHeight: null,
      gimbal: null,
      networkInterface: 'wlan0',
      osVersion: INITIAL_OS_VERSION,
      recording: 'idle',
      call: 'idle',
      speaking: false,
      updating: false,
    });
    expect(core('pro').info()).toMatchObject({ ringLight: false, patrolLamp: null, gimbal: null });
    expect(core('pro').info().periscopeHeight).toBeGreaterThan(0);
    expect(core('ex').info()).toMatchObject({ ringLight: false, patrolLamp: false, gimbal: { pan: 0, tilt: 0 } });
    expect(core('ex').info().periscopeHeight).toBeNull();
  });

  it('FAILS, through the core, an action the model does not have', () => {
    const mini = core('mini');
    for (const [type, params] of [
      ['gimbalJog', { pan: '5', tilt: '0' }],
      ['setThermal', { colorMap: 'ir', rangeMin: '0', rangeMax: '50' }],
      ['setPeriscopeHeight', { height: '1.5' }],
      ['setPatrolLamp', { on: 'true' }],
    ] as const) {
      const id = mini.instant(type, params);
      expect(mini.status(id)).toMatchObject({
        actionStatus: 'FAILED',
        resultDescription: `Unknown action type '${type}'`,
      });
    }
    const ex = core('ex');
    const id = ex.instant('gimbalJog', { pan: '5', tilt: '0' });
    expect(ex.status(id)?.actionStatus).toBe('FINISHED');
    expect(ex.info().gimbal).toEqual({ pan: 5, tilt: 0 });
  });
});

// ---------------------------------------------------------------- photos

describe('takePhoto', () => {
  it('publishes a robotPhotoMessage whose data is a 1280x720 PNG of the camera', () => {
    const r = core('ex');
    const id = r.instant('takePhoto', { camera: 'thermal' });
    // RUNNING while it captures, then the photo goes out and it FINISHES.
    expect(r.status(id)?.actionStatus).toBe('RUNNING');
    expect(r.out.filter((e) => e.topic === 'photo')).toEqual([]);
    r.tick(PHOTO_CAPTURE_SECONDS);
    expect(r.status(id)?.actionStatus).toBe('FINISHED');
    const photos = r.out.filter((e) => e.topic === 'photo');
    expect(photos).toHaveLength(1);
    const msg = robotPhotoMessageSchema.parse(JSON.parse(photos[0]!.payload));
    expect(msg).toMatchObject({
      actionId: id,
      camera: 'thermal',
      contentType: 'image/png',
      width: PHOTO_WIDTH,
      height: PHOTO_HEIGHT,
      serialNumber: 'F-ex',
      manufacturer: 'sim',
      version: '2.1.0',
    });
    const png = Buffer.from(msg.data, 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(PHOTO_WIDTH);
    expect(png.readUInt32BE(20)).toBe(PHOTO_HEIGHT);
    // The pixels decompress to the full image (filter byte + RGBA per row).
    const idat = png.indexOf('IDAT', 0, 'latin1');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(raw.length).toBe((PHOTO_WIDTH * 4 + 1) * PHOTO_HEIGHT);

    // headerIds of the photo topic count up.
    r.instant('takePhoto', { camera: 'v1' });
    r.tick(PHOTO_CAPTURE_SECONDS);
    const second = robotPhotoMessageSchema.parse(JSON.parse(r.out.filter((e) => e.topic === 'photo')[1]!.payload));
    expect(second.headerId).toBe(msg.headerId + 1);
  });

  it('sends a smaller still when asked for a width (the start-position check asks for 320); refuses a width out of range', () => {
    const r = core('ex');
    const id = r.instant('takePhoto', { camera: 'v1', width: '320' });
    expect(r.status(id)?.resultDescription).toBe('Capturing v1 (320 wide)');
    r.tick(PHOTO_CAPTURE_SECONDS);
    expect(r.status(id)?.actionStatus).toBe('FINISHED');
    const msg = robotPhotoMessageSchema.parse(JSON.parse(r.out.filter((e) => e.topic === 'photo')[0]!.payload));
    expect(msg).toMatchObject({ actionId: id, camera: 'v1', width: 320, height: 180 });
    const png = Buffer.from(msg.data, 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([320, 180]);

    for (const width of ['10', '1281', 'wide']) {
      const bad = r.instant('takePhoto', { camera: 'v1', width });
      expect(r.status(bad)).toMatchObject({ actionStatus: 'FAILED' });
      expect(r.status(bad)?.resultDescription).toMatch(/^Parameter width must be an integer( from 64 to 1280)?/);
    }
  });

  it('FAILS for a camera the model lacks or a capture error, without publishing', () => {
    const r = core('mini');
    const id = r.instant('takePhoto', { camera: 'thermal' });
    expect(r.status(id)).toMatchObject({ actionStatus: 'FAILED' });
    expect(r.status(id)?.resultDescription).toMatch(/not one of this robot's cameras \(v1, v2\)/);
    expect(r.out.filter((e) => e.topic === 'photo')).toEqual([]);

    const host = fakeHost();
    host.capture = () => {
      throw new Error('camera offline');
    };
    const f = new RobotFeatures('mini', host);
    const st = act(f, 'takePhoto', { camera: 'v2' });
    f.step(PHOTO_CAPTURE_SECONDS);
    expect(st).toMatchObject({
      actionStatus: 'FAILED',
      resultDescription: 'takePhoto failed: camera offline',
    });
    expect(host.photos).toEqual([]);
  });

  it('uses the host capture and header with the fake host', () => {
    const { f, host } = features('pro');
    const st = act(f, 'takePhoto', { camera: 's1', resolution: '4k' });
    expect(st).toMatchObject({ actionStatus: 'RUNNING', resultDescription: 'Capturing s1 (4k)' });
    expect(host.captures).toEqual([]);
    f.step(PHOTO_CAPTURE_SECONDS);
    expect(st.actionStatus).toBe('FINISHED');
    expect(host.captures).toEqual(['s1']);
    const msg = robotPhotoMessageSchema.parse(JSON.parse(host.photos[0]!));
    expect(msg).toMatchObject({ actionId: st.actionId, camera: 's1', width: 64, height: 32, headerId: 1 });
  });
});

// ---------------------------------------------------------------- official factsheet schemas, every model

const SCHEMA_DIR = path.resolve(import.meta.dirname, '../../../packages/contract/vda5050');

describe('factsheets of every model against the official schemas', () => {
  type Ajv = Parameters<typeof addFormats>[0];
  const requireFromFormats = createRequire(createRequire(import.meta.url).resolve('ajv-formats'));
  const Ajv2020 = (requireFromFormats('ajv/dist/2020') as { default: new (o: object) => Ajv }).default;

  function factsheetValidator(version: VdaVersion) {
    let file = path.join(SCHEMA_DIR, version, 'factsheet.schema');
    if (!existsSync(file)) file = path.join(SCHEMA_DIR, version, 'factsheet.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (!schema.properties) {
      // As in schemas.test.ts: the 2.0.0 file lists its fields at the top level.
      const keywords = new Set(['$schema', 'title', 'description', 'required', 'subtopic', 'type']);
      const properties: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema)) {
        if (keywords.has(k)) continue;
        properties[k] = v;
        delete schema[k];
      }
      schema.properties = properties;
    }
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    return ajv.compile(schema);
  }

  it.each(VDA_VERSIONS)('version %s', (version) => {
    const validate = factsheetValidator(version);
    for (const model of ['pro', 'mini', 'ex'] as const) {
      const fs = core(model, { version }).factsheet();
      const ok = validate(fs);
      expect({ model, ok, errors: validate.errors?.slice(0, 3) ?? null }).toEqual({ model, ok: true, errors: null });
    }
    // The validator does look at the custom actions: an unknown valueDataType is refused.
    const fs = core('ex', { version }).factsheet() as { protocolFeatures: { agvActions: unknown[] } };
    const broken = structuredClone(fs);
    broken.protocolFeatures.agvActions.push({
      actionType: 'x',
      actionScopes: ['INSTANT'],
      actionParameters: [{ key: 'k', valueDataType: 'TEXT', isOptional: false }],
    });
    expect(validate(broken)).toBe(false);
  });
});

describe('push-to-talk through the robot', () => {
  it('speaks while the operator’s voice arrives and stops a moment after', () => {
    let changes = 0;
    const f = new RobotFeatures('mini', {
      battery: () => 80,
      capture: () => ({ png: Buffer.alloc(0), width: 1, height: 1 }),
      publishPhoto: () => undefined,
      header: () => ({ headerId: 1, timestamp: '', version: '2.1.0', manufacturer: 'sim', serialNumber: 'S' }),
      restart: () => undefined,
      changed: () => changes++,
    });
    expect(f.info().speaking).toBe(false);
    f.hearOperator();
    expect(f.info().speaking).toBe(true);
    expect(changes).toBe(1);
    f.step(0.2);
    f.hearOperator(); // still talking: no new change
    expect(changes).toBe(1);
    f.step(0.5);
    expect(f.info().speaking).toBe(false);
    expect(changes).toBe(2);
  });
});
