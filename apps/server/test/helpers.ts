import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrator.ts';
import { createAudit } from '../src/services/audit.ts';
import { createMailer } from '../src/services/mailer.ts';
import { createReadCaches } from '../src/services/read-cache.ts';
import { createFileStore } from '../src/services/file-store.ts';
import { seedDemo } from '../src/seed.ts';
import { DEMO_ACCOUNTS } from '../src/seed.ts';
import { startRobotLink, type RobotLinkService } from '../src/modules/robot-link/index.ts';
import mqtt from 'mqtt';
import { errorBodySchema, vdaTopic, type CreatedRobot, type VdaInstantActions, type VdaOrder } from '@portal/contract';
import type { RobotOptions } from '@portal/robot-sim';

/**
 * A real app on a real database: SQLite in a temporary folder, or, when TEST_DATABASE_URL is set
 * (the PostgreSQL run of `npm test`), a fresh PostgreSQL database of its own. The demo data is
 * seeded. The clock can be moved forward to test expiry.
 */
export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  advance(minutes: number): void;
  /** The robot link on its own embedded broker (a free port per test app). */
  link: RobotLinkService;
  /** Where robots connect (the credentials' mqttUrl). */
  brokerUrl: string;
  close(): Promise<void>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  login(loginId: string, password: string, extra?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  /** Logs a demo account in and answers its bearer header. */
  as(account: DemoLogin): Promise<{ authorization: string; token: string; id: number }>;
  /** One API call (`url` below `/api`) with this `Authorization` header and an optional JSON body. */
  call(
    method: InjectOptions['method'],
    url: string,
    authorization: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
}

/** The error of an error answer (checked against the one error body). */
export const errorOf = (res: { json: () => unknown }) => errorBodySchema.parse(res.json()).error;

/** startRobot options for a robot the API registered (its credentials), on a map. */
export function simOptions(
  created: CreatedRobot,
  opts: Omit<RobotOptions, 'brokerUrl' | 'username' | 'password' | 'manufacturer' | 'serialNumber'>,
): RobotOptions {
  const c = created.credentials;
  return {
    brokerUrl: c.mqttUrl,
    username: c.username,
    password: c.password,
    manufacturer: c.manufacturer,
    serialNumber: c.serialNumber,
    ...opts,
  };
}

export type DemoLogin = (typeof DEMO_ACCOUNTS)[number]['loginId'];

export const demo = (loginId: DemoLogin) => DEMO_ACCOUNTS.find((a) => a.loginId === loginId)!;

export const usingPostgres = (): boolean => !!process.env.TEST_DATABASE_URL;

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `portal_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        // A superuser's process on the database (an anti-wraparound vacuum) cannot be terminated by
        // the test role (42501): it ends by itself, so try again a few times.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await c.query(`drop database if exists ${name} with (force)`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '42501' || attempt >= 20) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}

export async function createTestApp(
  env: Record<string, string> = {},
  /** The flow runner's outbound HTTP (building systems) and their polling interval. */
  runner: Pick<BuildOptions, 'outbound' | 'buildingPollMs'> = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-test-'));
  const pgdb = await freshDatabase();
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_LOGIN: '100000',
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    MQTT_PORT: '0',
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    ...env,
  });
  const db = openDatabase(config.database);
  await migrate(db.kysely as never, db.dialect);
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  await seedDemo(db.kysely, clock());
  const audit = createAudit(db.kysely, clock);
  let app: FastifyInstance | null = null;
  const silent = new Proxy({} as FastifyInstance['log'], { get: () => () => undefined });
  const robotLink = await startRobotLink({ config, db: db.kysely, log: silent, clock });
  await robotLink.link.ready;
  const mailer = createMailer({ db: db.kysely, clock, log: silent, smtpUrl: config.smtpUrl, from: 'test@localhost' });
  app = await buildApp({
    ctx: {
      config,
      db: db.kysely,
      dialect: db.dialect,
      dbVersion: db.version,
      clock,
      audit,
      mailer,
      fileStore: createFileStore({ dir: join(config.dataDir, 'files'), db: db.kysely, clock }),
      caches: createReadCaches(db.dataVersion, db.cacheable && config.readCache, clock, config.readCache),
      robotLink: robotLink.link,
    },
    logger: false,
    ...runner,
  });
  await app.ready();
  const a = app;
  const inject = (opts: InjectOptions) => a.inject(opts);
  const login = (loginId: string, password: string, extra: Partial<InjectOptions> = {}) =>
    inject({ method: 'POST', url: '/api/operators/login', payload: { loginId, loginPw: password }, ...extra });
  return {
    app: a,
    db,
    config,
    inject,
    login,
    link: robotLink.link,
    brokerUrl: robotLink.link.robotBrokerUrl(),
    advance: (minutes) => {
      offset += minutes * 60_000;
    },
    async as(account) {
      const res = await login(account, demo(account).password);
      if (res.statusCode !== 200) throw new Error(`login ${account}: ${res.statusCode} ${res.body}`);
      const body = res.json<{ token: string; id: number }>();
      return { authorization: `Bearer ${body.token}`, token: body.token, id: body.id };
    },
    call: (method, url, authorization, payload) =>
      inject({
        method,
        url: `/api${url}`,
        headers: { authorization },
        ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      }),
    async close() {
      await a.close();
      await robotLink.stop();
      await db.close();
      await pgdb?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The latest delivery to a recipient, read straight from the delivery log. */
export async function lastDelivery(t: TestApp, recipient: string, purpose?: string) {
  let q = t.db.kysely.selectFrom('outbox').selectAll().where('recipient', '=', recipient);
  if (purpose) q = q.where('purpose', '=', purpose);
  return q.orderBy('id', 'desc').executeTakeFirst();
}

export const codeFrom = (body: string): string => /(\d{6})/.exec(body)?.[1] ?? '';

/** Polls until `check` answers a value (not undefined, null or false), or fails after `ms`. */
export async function until<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Registers a robot on the first floor of the demo building (as the demo organization's
 * administrator) and answers it with its credentials and where it stands.
 */
export async function registerDemoRobot(
  t: TestApp,
  robot: { serialNo: string; name: string; model: 'pro' | 'mini' | 'ex' },
): Promise<{ created: CreatedRobot; buildingId: number; floorId: number }> {
  const building = await t.db.kysely
    .selectFrom('buildings')
    .select('id')
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  const floor = await t.db.kysely
    .selectFrom('floors')
    .select('id')
    .where('building_id', '=', building.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const res = await t.call('POST', '/robots', (await t.as('orgadmin@demo.example')).authorization, {
    ...robot,
    version: '',
    hardwareRevision: '',
    buildingId: building.id,
    floorId: floor.id,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  if (res.statusCode !== 201) throw new Error(`register ${robot.serialNo}: ${res.statusCode} ${res.body}`);
  return { created: res.json<CreatedRobot>(), buildingId: building.id, floorId: floor.id };
}

/**
 * What the portal sends a robot, as the robot receives it: a second MQTT session with the robot's
 * credentials subscribed to its `order` and `instantActions` topics. The lists fill as messages come.
 */
export async function observeRobot(
  created: CreatedRobot,
  orders: VdaOrder[] = [],
  instant: VdaInstantActions[] = [],
): Promise<{ orders: VdaOrder[]; instant: VdaInstantActions[]; close(): Promise<void> }> {
  const c = created.credentials;
  const client = await mqtt.connectAsync(c.mqttUrl, {
    protocolVersion: 4,
    username: c.username,
    password: c.password,
    clientId: `${c.manufacturer}-${c.serialNumber}:observer`,
    reconnectPeriod: 0,
  });
  client.on('message', (topic, payload) => {
    const msg = JSON.parse(payload.toString('utf8')) as unknown;
    if (topic.endsWith('/order')) orders.push(msg as VdaOrder);
    else instant.push(msg as VdaInstantActions);
  });
  await client.subscribeAsync(
    [vdaTopic(c.manufacturer, c.serialNumber, 'order'), vdaTopic(c.manufacturer, c.serialNumber, 'instantActions')],
    { qos: 1 },
  );
  return { orders, instant, close: () => client.endAsync() };
}
