import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { floorMapId, ROBOT_MODELS, VDA_VERSIONS, type KnownRobotModel, type VdaVersion } from '@portal/contract';
import { PortalClient } from './portal-client.ts';
import { startRobot, type RobotOptions, type SimRobot } from './robot.ts';
import { webrtcTeleop } from './teleop/webrtc.ts';
import { setGaugeValue } from './world.ts';

const HELP = `Simulated VDA 5050 robots for the portal.

  npm run sim -- [options]

Options
  --robots N           number of robots (default 3)
  --portal URL         portal base URL (default http://127.0.0.1:8080)
  --login EMAIL        portal account (default the demo system admin sysadmin@demo.example)
  --password PW        its password (default Demo-SysAdmin-2026)
  --building-id ID     building to put the robots in (default: the first the account sees)
  --mqtt URL           broker URL; default: the mqttUrl the portal issues, else mqtt://127.0.0.1:1883
  --prefix SIM         serial number prefix: SIM-001, SIM-002...
  --model M            pro, mini, ex or mixed (default mixed)
  --vda-version V      2.0.0 or 2.1.0 (default 2.1.0)
  --hz N               visualization messages per second (default 5, 0 = off)
  --speed-scale N      simulated time per real time (default 1)
  --teleop on|off      answer teleoperation (WebRTC video and control; default on)
  --action-fail-rate R 0..1: the share of flow actions (speak, takePhoto, setPose...; instant or node
                       actions) that FAIL with "simulated failure" (default 0)
  --person-after S|never
                       detectPerson: seconds until a person comes within range, or never (the action
                       then waits for its timeout); default a random 1 to 4 s
  --gauge MAP:ID=VALUE set a simulated gauge's needle, e.g. floor-1:G1=85 (repeatable; floor-1 has
                       G1..G3, docs/meter-reading.md); at run time, type the same on stdin
  --credentials FILE   JSON array of { brokerUrl, username, password, manufacturer, serialNumber, model,
                       mapId, version?, start?, battery?, chargers?, building? }: no portal registration
                       at all; building { url, token?, bank?, door?, floor? }: the building-systems API
                       the arm's button presses reach (README "Button panels and the arm")
  --help               this text

Existing robots (same serial number) keep their floor; their credentials are rotated.
Ctrl+C stops the robots cleanly (connection OFFLINE).`;

const { values: args } = parseArgs({
  options: {
    robots: { type: 'string', default: '3' },
    portal: { type: 'string', default: 'http://127.0.0.1:8080' },
    login: { type: 'string', default: 'sysadmin@demo.example' },
    password: { type: 'string', default: 'Demo-SysAdmin-2026' },
    'building-id': { type: 'string' },
    mqtt: { type: 'string' },
    prefix: { type: 'string', default: 'SIM' },
    model: { type: 'string', default: 'mixed' },
    'vda-version': { type: 'string', default: '2.1.0' },
    hz: { type: 'string', default: '5' },
    'speed-scale': { type: 'string', default: '1' },
    credentials: { type: 'string' },
    teleop: { type: 'string', default: 'on' },
    'action-fail-rate': { type: 'string', default: '0' },
    'person-after': { type: 'string' },
    gauge: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

const DEFAULT_MQTT = 'mqtt://127.0.0.1:1883';

function fail(message: string): never {
  console.error(`robot-sim: ${message}`);
  process.exit(1);
}

function num(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number >= ${min}`);
  return n;
}

/** Robots stand in a grid, each on its own charger ("home"). */
const home = (i: number) => ({ x: 1 + (i % 10) * 1.5, y: 1 + Math.floor(i / 10) * 1.5, theta: 0 });

async function fromPortal(count: number, hz: number, speedScale: number): Promise<RobotOptions[]> {
  const model = args.model;
  if (model !== 'mixed' && !(ROBOT_MODELS as readonly string[]).includes(model)) fail(`unknown --model ${model}`);
  const version = args['vda-version'] as VdaVersion;
  if (!VDA_VERSIONS.includes(version)) fail(`--vda-version must be one of ${VDA_VERSIONS.join(', ')}`);

  const portal = new PortalClient(args.portal);
  await portal.login(args.login, args.password);
  let buildingId: number;
  if (args['building-id']) buildingId = num('building-id', args['building-id'], 1);
  else {
    const first = (await portal.buildings())[0];
    if (!first) fail(`${args.login} sees no building`);
    buildingId = first.id;
  }
  const floors = (await portal.floors(buildingId)).sort((a, b) => a.index - b.index);
  if (floors.length === 0) fail(`building ${buildingId} has no floor`);

  const list: RobotOptions[] = [];
  for (let i = 0; i < count; i++) {
    const serialNo = `${args.prefix}-${String(i + 1).padStart(3, '0')}`;
    const m: KnownRobotModel = model === 'mixed' ? ROBOT_MODELS[i % ROBOT_MODELS.length]! : (model as KnownRobotModel);
    const existing = await portal.findRobot(serialNo);
    let floorId = floors[i % floors.length]!.id;
    let creds;
    if (existing) {
      floorId = existing.floorId ?? floorId;
      creds = await portal.rotateCredentials(existing.id);
    } else {
      creds = (
        await portal.createRobot({
          serialNo,
          name: `Simulated ${m} ${i + 1}`,
          model: m,
          version: '',
          hardwareRevision: '',
          buildingId,
          floorId,
          groupId: null,
          status: 1,
          longTermRecordingAutoStart: false,
          videoMode: 'medium',
          notes: 'Created by robot-sim',
        })
      ).credentials;
    }
    const start = home(i);
    list.push({
      brokerUrl: args.mqtt ?? (creds.mqttUrl || DEFAULT_MQTT),
      username: creds.username,
      password: creds.password,
      manufacturer: creds.manufacturer,
      serialNumber: creds.serialNumber,
      model: m,
      version,
      mapId: floorMapId(floorId),
      start,
      chargers: [start],
      visualizationHz: hz,
      speedScale,
    });
  }
  return list;
}

function fromFile(file: string, hz: number, speedScale: number): RobotOptions[] {
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(entries)) fail(`${file} must hold a JSON array`);
  return (entries as Array<Partial<RobotOptions>>).map((e, i) => {
    for (const k of ['brokerUrl', 'username', 'password', 'manufacturer', 'serialNumber', 'model', 'mapId'] as const) {
      if (typeof e[k] !== 'string') fail(`${file}[${i}]: ${k} missing`);
    }
    const start = e.start ?? home(i);
    return {
      visualizationHz: hz,
      speedScale,
      start,
      chargers: [start],
      ...(e as RobotOptions),
      ...(args.mqtt ? { brokerUrl: args.mqtt } : {}),
    };
  });
}

function summary(robots: readonly SimRobot[]): string {
  let online = 0;
  let driving = 0;
  let charging = 0;
  let errors = 0;
  let battery = 0;
  for (const r of robots) {
    const s = r.state();
    if (r.connected) online++;
    if (s.driving) driving++;
    if (s.batteryState.charging) charging++;
    if (s.errors.length > 0) errors++;
    battery += s.batteryState.batteryCharge;
  }
  const avg = robots.length ? Math.round(battery / robots.length) : 0;
  return `${new Date().toISOString()}  online ${online}/${robots.length}  driving ${driving}  charging ${charging}  with errors ${errors}  battery avg ${avg}%`;
}

/** `MAP:ID=VALUE` (e.g. floor-1:G1=85): sets the gauge; answers what was set, or throws. */
function setGauge(spec: string): string {
  const m = /^\s*([^:\s]+):([^=\s]+)=\s*(-?[0-9.]+)\s*$/.exec(spec);
  if (!m) throw new Error(`--gauge ${spec}: MAP:ID=VALUE expected, e.g. floor-1:G1=85`);
  const g = setGaugeValue(m[1]!, m[2]!, Number(m[3]));
  return `${m[1]}:${g.id} (${g.qr}) = ${g.value}`;
}

async function main(): Promise<void> {
  if (args.help) {
    console.log(HELP);
    return;
  }
  for (const spec of args.gauge ?? []) {
    try {
      console.log(`gauge ${setGauge(spec)}`);
    } catch (err) {
      fail((err as Error).message);
    }
  }
  // Gauges at run time: one MAP:ID=VALUE per line on stdin.
  {
    process.stdin.setEncoding('utf8');
    let buffered = '';
    process.stdin.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        try {
          console.log(`gauge ${setGauge(line)}`);
        } catch (err) {
          console.error((err as Error).message);
        }
      }
    });
    process.stdin.unref?.();
  }
  const hz = num('hz', args.hz, 0);
  const speedScale = num('speed-scale', args['speed-scale'], 0.01);
  const actionFailRate = num('action-fail-rate', args['action-fail-rate'], 0);
  if (actionFailRate > 1) fail('--action-fail-rate must be a number from 0 to 1');
  const personAfter = args['person-after'];
  const personDetectionSeconds =
    personAfter === undefined ? undefined : personAfter === 'never' ? null : num('person-after', personAfter, 0);
  const list = args.credentials
    ? fromFile(args.credentials, hz, speedScale)
    : await fromPortal(num('robots', args.robots, 1), hz, speedScale);

  if (args.teleop !== 'on' && args.teleop !== 'off') fail('--teleop must be on or off');
  const teleop = args.teleop === 'on' ? webrtcTeleop() : undefined;

  const robots: SimRobot[] = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1); // a second Ctrl+C: leave at once
    stopping = true;
    console.log(`${signal}: stopping ${robots.length} robots...`);
    await Promise.allSettled(robots.map((r) => r.stop()));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // A few at a time: a broker does not like hundreds of simultaneous CONNECTs.
  for (let i = 0; i < list.length; i += 20) {
    const batch = list.slice(i, i + 20);
    const results = await Promise.allSettled(
      batch.map((o) =>
        startRobot({
          ...o,
          ...(teleop ? { teleop } : {}),
          actionFailRate,
          ...(personDetectionSeconds !== undefined ? { personDetectionSeconds } : {}),
          onError: (err) => console.error(`${o.serialNumber}: ${err.message}`),
        }),
      ),
    );
    results.forEach((r, j) => {
      const o = batch[j]!;
      const where = `${o.serialNumber.padEnd(12)} ${o.model.padEnd(4)} ${o.mapId.padEnd(10)} ${o.brokerUrl} (user ${o.username})`;
      if (r.status === 'fulfilled') {
        robots.push(r.value);
        console.log(`${where}  online`);
      } else console.error(`${where}  FAILED: ${(r.reason as Error).message}`);
    });
    if (stopping) return;
  }
  if (robots.length === 0) fail('no robot could connect');
  console.log(summary(robots));
  setInterval(() => console.log(summary(robots)), 10_000);
}

// The native WebRTC module may crash in Node's own teardown: end through process.exit (see teleop/wrtc.ts).
main().catch((err: unknown) => fail((err as Error).message));
