import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { iceServerSchema, meetsPasswordPolicy, ROBOT_DEFAULT_STATE_INTERVAL_S, type IceServer } from '@portal/contract';
import { allowEntryProblem } from './lib/outbound.ts';

const port = z.coerce.number().int().min(0).max(65535);
const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** Environment variables and their defaults (README "Configuration"). */
const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres(ql)?:\/\/|sqlite:)/.test(v), 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  API_BASE: z
    .string()
    .regex(/^\/[A-Za-z0-9_\-/]*[A-Za-z0-9_-]$/, 'must be a path such as /api')
    .default('/api'),
  MQTT_PORT: port.default(1883),
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?|tcp):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Robot Portal <no-reply@localhost>'),
  /**
   * The demo's own mail server (docs/deployment.md "Mail in the demo"): set by `npm start`; without
   * SMTP_URL it starts an SMTP receiver on 127.0.0.1:DEMO_SMTP_PORT (another free port when that one is taken).
   */
  DEMO_SMTP: boolish.default(false),
  DEMO_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_EMAIL: z.email('must be an email address').optional(),
  ADMIN_PASSWORD: z
    .string()
    .refine(meetsPasswordPolicy, 'must be 10 to 32 characters with three of uppercase, lowercase, digit, special')
    .optional(),
  TRUST_PROXY: boolish.default(false),
  SEED_DEMO: boolish.default(true),
  READ_CACHE: boolish.default(true),
  SKYWAY_KEY: z.string().default(''),
  WEB_DIST: z.string().optional(),
  RATE_LIMIT_LOGIN: z.coerce.number().int().min(1).max(100000).default(30),
  PUBLIC_URL: z.string().url().optional(),
  /** The broker address given to robots in their credentials (default: derived from HOST and MQTT_PORT or MQTT_URL). */
  MQTT_PUBLIC_URL: z
    .string()
    .regex(/^(mqtts?|wss?|tcp):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /**
   * MQTT over TLS for the embedded broker (docs/deployment.md): PEM certificate (chain) and key files.
   * Both set: a TLS listener (mqtts) on MQTT_TLS_PORT, beside the plain one unless MQTT_PLAIN=0.
   */
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  MQTT_TLS_PORT: port.default(8883),
  MQTT_PLAIN: boolish.default(true),
  /** Enables the broker auth hooks (POST {API_BASE}/mqtt/auth and /mqtt/acl) for an external broker. */
  MQTT_AUTH_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /**
   * The state interval (seconds) assumed for a robot whose factsheet announces none
   * (`protocolLimits.timing.defaultStateInterval`): silent for two of them, it is "not reporting".
   */
  ROBOT_STATE_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(ROBOT_DEFAULT_STATE_INTERVAL_S),
  /** How late (minutes) a schedule's occurrence may still start; later it is logged as missed (docs/api-schedules.md). */
  SCHEDULE_GRACE_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /** How often (ms) the schedule dispatcher looks for due occurrences; 0 turns its timer off (tests). */
  SCHEDULE_TICK_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Reference photos at save and the start-position check before a scheduled start (docs/api-schedules.md); off: neither. */
  SCHEDULE_START_CHECK: boolish.default(true),
  /** How far ahead (ms) the schedule dispatcher claims occurrences and checks their start positions (docs/api-schedules.md). */
  SCHEDULE_LOOKAHEAD_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  SCHEDULE_PREPARE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** How often (ms) the report export worker looks for queued exports (docs/api-reports.md); 0 turns its timer off (tests). */
  EXPORT_TICK_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** How often (ms) the notification worker looks for due deliveries (docs/notifications.md); 0 turns its timer off (tests). */
  NOTIFY_TICK_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Events of one cause reaching one recipient within this window (ms) are sent as one message (docs/notifications.md). */
  NOTIFY_GROUP_WINDOW_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  /** A robot offline longer than this (minutes) is notified (docs/notifications.md). */
  NOTIFY_OFFLINE_MINUTES: z.coerce.number().min(0.1).max(1440).default(5),
  /** Attempts of a delivery before it is failed, and the first retry's delay (ms; doubled at each retry). */
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Simulated robots `npm start` runs on the demo building (0 turns them off). */
  SIMULATED_ROBOTS: z.coerce.number().int().min(0).max(2000).default(3),
  /** The demo building's simulated elevators and security doors; unset: on exactly when SIMULATED_ROBOTS is. */
  SIMULATED_BUILDING_SYSTEMS: boolish.optional(),
  /** The hakaru.ai meter-reading service's API root (docs/meter-reading.md); logins are per building. */
  HAKARU_AI_URL: z.string().url().default('https://api.hakaru.ai'),
  /**
   * Hosts the server may call although they are internal (on-premise chat servers): comma-separated
   * host names (`chat.corp.example`, `*.corp.example`), addresses or CIDRs (`10.20.0.0/16`).
   */
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((v, c) => {
      const entries = (v ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '');
      for (const e of entries) {
        const problem = allowEntryProblem(e);
        if (problem) c.addIssue({ code: 'custom', message: problem });
      }
      return entries;
    }),
  /**
   * WebRTC ICE servers for teleoperation, a JSON array of RTCIceServer
   * (`[{"urls":"stun:stun.example.com"},{"urls":"turn:turn.example.com","username":"u","credential":"p"}]`).
   * Default none: host candidates only (same network, or loopback).
   */
  ICE_SERVERS: z
    .string()
    .optional()
    .transform((v, c) => {
      if (v === undefined || v.trim() === '') return [];
      try {
        return z.array(iceServerSchema).max(10).parse(JSON.parse(v));
      } catch {
        c.addIssue({ code: 'custom', message: 'must be a JSON array of {urls, username?, credential?}' });
        return z.NEVER;
      }
    }),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  apiBase: string;
  mqtt:
    | {
        kind: 'embedded';
        port: number;
        /** MQTT over TLS: certificate and key files, its port, and whether plain MQTT stays on. */
        tls?: { port: number; certFile: string; keyFile: string; plain: boolean };
      }
    | { kind: 'external'; url: string };
  smtpUrl: string | null;
  mailFrom: string;
  /** Run the demo's SMTP receiver when there is no SMTP_URL (`npm start` only), on this port. */
  demoSmtp: { port: number } | null;
  secretKey: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  admin: { email: string; password: string } | null;
  trustProxy: boolean;
  seedDemo: boolean;
  /** In-process read caches (sessions, lists); they also need a cacheable database (SQLite). */
  readCache: boolean;
  skywayKey: string;
  webDist: string | null;
  /** Login and code attempts per IP per minute. */
  rateLimitLogin: number;
  publicUrl: string | null;
  mqttPublicUrl: string | null;
  mqttAuthToken: string | null;
  /** WebRTC ICE servers for teleoperation (browsers and robots get the same list). */
  iceServers: IceServer[];
  simulatedRobots: number;
  /** Run the demo building's simulated elevators and doors (with or without simulated robots). */
  simulatedBuildingSystems: boolean;
  /** The state interval (s) of a robot whose factsheet announces none. */
  robotStateIntervalS: number;
  /** Internal hosts, addresses or CIDRs outbound calls may reach (lib/outbound.ts). */
  outboundAllowHosts: string[];
  /** hakaru.ai's API root (HAKARU_AI_URL). */
  hakaruAiUrl: string;
  /** How late (minutes) a schedule's occurrence may still start (else logged as missed). */
  scheduleGraceMinutes: number;
  /** The schedule dispatcher's tick (ms); 0: no timer. */
  scheduleTickMs: number;
  /** The start-position check of schedules (reference photos at save, a photo before each start). */
  scheduleStartCheck: boolean;
  /** How far ahead (ms) the schedule dispatcher claims occurrences (started at their due time). */
  scheduleLookAheadMs: number;
  /** How long before its due time an occurrence's run is prepared (held until the due time; 0: off). */
  schedulePrepareMs: number;
  /** The report export worker's tick (ms); 0: no timer. */
  exportTickMs: number;
  /** The notification worker's tick (ms); 0: no timer. */
  notifyTickMs: number;
  /** The grouping window of notifications (ms). */
  notifyGroupWindowMs: number;
  /** A robot offline longer than this (minutes) is notified. */
  notifyOfflineMinutes: number;
  /** Attempts of a notification delivery before it fails, and the first retry's delay (ms). */
  notifyMaxAttempts: number;
  notifyRetryBaseMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads the environment once, listing every problem at once. Creates DATA_DIR and the secret key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
  // Checked apart from the schema so it is reported together with every other problem.
  if (!!raw.ADMIN_EMAIL !== !!raw.ADMIN_PASSWORD) {
    problems.push(
      `${raw.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'}: ADMIN_EMAIL and ADMIN_PASSWORD must be set together`,
    );
  }
  if (!!raw.MQTT_TLS_CERT !== !!raw.MQTT_TLS_KEY) {
    problems.push(
      `${raw.MQTT_TLS_CERT ? 'MQTT_TLS_KEY' : 'MQTT_TLS_CERT'}: MQTT_TLS_CERT and MQTT_TLS_KEY must be set together`,
    );
  }
  for (const name of ['MQTT_TLS_CERT', 'MQTT_TLS_KEY'] as const) {
    const file = raw[name];
    if (file && !existsSync(file)) problems.push(`${name}: no such file: ${file}`);
  }
  if (raw.MQTT_TLS_CERT && raw.MQTT_URL)
    problems.push('MQTT_TLS_CERT: applies to the embedded broker only, not with MQTT_URL');
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError([`DATA_DIR: cannot create ${dataDir}: ${(err as Error).message}`]);
  }
  const database: Config['database'] =
    e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: e.DATABASE_URL ? e.DATABASE_URL.slice('sqlite:'.length) : join(dataDir, 'portal.db') };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    apiBase: e.API_BASE,
    mqtt: e.MQTT_URL
      ? { kind: 'external', url: e.MQTT_URL }
      : {
          kind: 'embedded',
          port: e.MQTT_PORT,
          ...(e.MQTT_TLS_CERT && e.MQTT_TLS_KEY
            ? {
                tls: {
                  port: e.MQTT_TLS_PORT,
                  certFile: resolve(e.MQTT_TLS_CERT),
                  keyFile: resolve(e.MQTT_TLS_KEY),
                  plain: e.MQTT_PLAIN,
                },
              }
            : {}),
        },
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    demoSmtp: e.DEMO_SMTP && !e.SMTP_URL ? { port: e.DEMO_SMTP_PORT } : null,
    secretKey: e.SECRET_KEY ?? readOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : null,
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO,
    readCache: e.READ_CACHE,
    skywayKey: e.SKYWAY_KEY,
    mqttPublicUrl: e.MQTT_PUBLIC_URL ?? null,
    mqttAuthToken: e.MQTT_AUTH_TOKEN ?? null,
    iceServers: e.ICE_SERVERS,
    simulatedRobots: e.SIMULATED_ROBOTS,
    simulatedBuildingSystems: e.SIMULATED_BUILDING_SYSTEMS ?? e.SIMULATED_ROBOTS > 0,
    robotStateIntervalS: e.ROBOT_STATE_INTERVAL_S,
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS,
    hakaruAiUrl: e.HAKARU_AI_URL.replace(/\/+$/, ''),
    scheduleGraceMinutes: e.SCHEDULE_GRACE_MINUTES,
    scheduleTickMs: e.SCHEDULE_TICK_MS,
    scheduleStartCheck: e.SCHEDULE_START_CHECK,
    scheduleLookAheadMs: e.SCHEDULE_LOOKAHEAD_MS,
    schedulePrepareMs: e.SCHEDULE_PREPARE_MS,
    exportTickMs: e.EXPORT_TICK_MS,
    notifyTickMs: e.NOTIFY_TICK_MS,
    notifyGroupWindowMs: e.NOTIFY_GROUP_WINDOW_MS,
    notifyOfflineMinutes: e.NOTIFY_OFFLINE_MINUTES,
    notifyMaxAttempts: e.NOTIFY_MAX_ATTEMPTS,
    notifyRetryBaseMs: e.NOTIFY_RETRY_BASE_MS,
    webDist: e.WEB_DIST ?? null,
    rateLimitLogin: e.RATE_LIMIT_LOGIN,
    publicUrl: e.PUBLIC_URL ?? null,
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}
