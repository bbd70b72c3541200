import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePhoto, createWorld, gaugeViewpoint } from '@portal/robot-sim';
import { secretBox } from '../src/lib/crypto.ts';
import { closeImageWorker } from '../src/lib/image-worker.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { readGaugePng } from '../src/modules/meter-reading/gauge-reader.ts';
import { hakaruReader } from '../src/modules/meter-reading/hakaru-client.ts';
import { meterReaders } from '../src/modules/meter-reading/readers.ts';
import { builtinReader, type MeterItem } from '../src/modules/meter-reading/reading-service.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The hakaru.ai client (docs/meter-reading.md) against a local stand-in of the service that follows
 * the documented request and answer: a login per building (its system links), the photo as base64,
 * the value back; an expired token is renewed once; errors map to MARKER_NOT_FOUND / READ_FAILED.
 */
let t: TestApp;
let server: Server;
let base: string;
let buildingId: number;
const LOGIN = 'hakaru-user@example.com';
const PASSWORD = 'hakaru-Secret-Password-42';
const seen: Array<{ path: string; auth: string | undefined; body: Record<string, unknown> }> = [];
const issued = new Set<string>();
let down = false;

const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
};

beforeAll(async () => {
  t = await createTestApp();
  buildingId = (await t.db.kysely.selectFrom('buildings').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const box = secretBox(t.config.secretKey);
  await t.db.kysely
    .insertInto('building_links')
    .values({
      building_id: buildingId,
      organization_id: (
        await t.db.kysely
          .selectFrom('buildings')
          .select('organization_id')
          .where('id', '=', buildingId)
          .executeTakeFirstOrThrow()
      ).organization_id,
      t_spider_url: '',
      hakaru_ai_login_id: LOGIN,
      hakaru_ai_password: box.seal(PASSWORD),
      lilz_token: null,
      kanriroid_token: null,
      updated_at: new Date().toISOString(),
    })
    .execute();
  // The stand-in: reads the photo with the same needle reader, as the AI would read it.
  let n = 0;
  server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (down) return send(503, { status: 'error', code: 'UNAVAILABLE', message: 'maintenance' });
      if (req.method === 'POST' && req.url === '/v1/auth/token') {
        if (body.loginId !== LOGIN || body.password !== PASSWORD) return send(401, { message: 'bad login' });
        const token = `tok-${++n}`;
        issued.add(token);
        return send(200, { accessToken: token, expiresIn: 3600 });
      }
      const m = /^\/v1\/tasks\/([^/]+)\/readings$/.exec(req.url ?? '');
      if (req.method === 'POST' && m) {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!issued.has(token)) return send(401, { message: 'token expired' });
        const png = Buffer.from(String(body.image), 'base64');
        const r = readGaugePng(png, null, { min: 0, max: 100 });
        if (!r.ok && r.code === 'MARKER_NOT_FOUND') {
          return send(200, { status: 'error', code: 'MARKER_NOT_FOUND', message: 'marker not found' });
        }
        if (!r.ok) return send(200, { status: 'error', code: 'UNREADABLE', message: r.message });
        return send(200, { status: 'ok', value: Math.round(r.value * 10) / 10, qrCode: r.qr, taskId: m[1] });
      }
      send(404, { message: 'not found' });
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  await t.close();
  await closeImageWorker();
});

const outbound = createOutbound({
  allow: ['127.0.0.1'],
  protocols: ['http:', 'https:'],
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
});
const reader = () => hakaruReader({ db: t.db.kysely, outbound, secretKey: t.config.secretKey, baseUrl: base });

function item(over: Partial<MeterItem> = {}): MeterItem {
  return {
    id: 1,
    buildingId,
    qrCodeNumber: 'GAUGE-7',
    taskId: 'task-17',
    deviceId: 'dev-1',
    meterType: 'analog',
    readingService: 'hakaru',
    definition: '{}',
    ...over,
  } as MeterItem;
}

const world = createWorld(
  'hakaru',
  { x0: -3, y0: -3, x1: 3, y1: 3 },
  [{ x0: -3, y0: -3, x1: 3, y1: -2.8 }],
  [],
  [{ id: 'A', qr: 'GAUGE-7', x: 0, y: -2.79, facing: Math.PI / 2 }],
);
function photo(value: number, away = false): Buffer {
  world.gauges![0]!.value = value;
  const pose = gaugeViewpoint(world.gauges![0]!, 1);
  return capturePhoto({
    camera: 'v1',
    pose: away ? { ...pose, theta: pose.theta + Math.PI } : pose,
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 15, rangeMax: 45 },
    robotName: 'sim',
    now: 0,
  }).png;
}

describe('meter reading: the hakaru.ai client', () => {
  it("logs in with the building's login and sends the photo to the item's task", async () => {
    const png = photo(42);
    const r = await reader().read(png, item());
    expect(r.ok).toBe(true);
    expect(r.ok && Math.abs(r.value - 42)).toBeLessThanOrEqual(2);
    expect(r.ok && r.qr).toBe('GAUGE-7');
    const login = seen.find((s) => s.path === '/v1/auth/token')!;
    expect(login.body).toEqual({ loginId: LOGIN, password: PASSWORD });
    const reading = seen.at(-1)!;
    expect(reading.path).toBe('/v1/tasks/task-17/readings');
    expect(reading.auth).toMatch(/^Bearer tok-/);
    expect(reading.body).toMatchObject({ deviceId: 'dev-1', qrCode: 'GAUGE-7', imageType: 'image/png' });
    expect(Buffer.from(String(reading.body.image), 'base64').equals(png)).toBe(true);
  });

  it('keeps its token, and logs in again once when the service answers 401', async () => {
    const r = reader();
    await r.read(photo(10), item());
    const logins = () => seen.filter((s) => s.path === '/v1/auth/token').length;
    const before = logins();
    await r.read(photo(20), item());
    expect(logins()).toBe(before);
    issued.clear(); // every token expired
    const again = await r.read(photo(30), item());
    expect(again.ok && Math.abs(again.value - 30)).toBeLessThanOrEqual(2);
    expect(logins()).toBe(before + 1);
  });

  it('maps the answers: marker not found, another QR code, a failing service, a missing login or task', async () => {
    expect(await reader().read(photo(50, true), item())).toMatchObject({ ok: false, code: 'MARKER_NOT_FOUND' });
    expect(await reader().read(photo(50), item({ qrCodeNumber: 'GAUGE-8' }))).toMatchObject({
      ok: false,
      code: 'MARKER_NOT_FOUND',
    });
    const loggedIn = reader();
    await loggedIn.read(photo(50), item());
    down = true;
    try {
      expect(await loggedIn.read(photo(50), item())).toMatchObject({
        ok: false,
        code: 'READ_FAILED',
        message: 'maintenance',
      });
      expect(await reader().read(photo(50), item())).toMatchObject({ ok: false, code: 'READ_FAILED' });
    } finally {
      down = false;
    }
    expect(await reader().read(photo(50), item({ taskId: '' }))).toMatchObject({ ok: false, code: 'READ_FAILED' });
    expect(await reader().read(photo(50), item({ buildingId: 999_999 }))).toMatchObject({
      ok: false,
      code: 'READ_FAILED',
      message: 'the building has no hakaru.ai login',
    });
    const unreachable = hakaruReader({
      db: t.db.kysely,
      outbound,
      secretKey: t.config.secretKey,
      baseUrl: 'http://127.0.0.1:1',
    });
    expect(await unreachable.read(photo(50), item())).toMatchObject({ ok: false, code: 'READ_FAILED' });
  });

  it("picks the item's reading service", () => {
    const pick = meterReaders({ db: t.db.kysely, outbound, secretKey: t.config.secretKey, baseUrl: base });
    expect(pick({ readingService: 'builtin' })).toBe(builtinReader);
    expect(pick({ readingService: 'hakaru' })).not.toBe(builtinReader);
  });
});
