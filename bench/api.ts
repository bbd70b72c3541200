/**
 * `npm run bench:api`: the list calls of the portal against a real server with 1,000 buildings and
 * 10,000 operators, under 50 concurrent connections, each for 10 s after a 2 s warm-up:
 *
 * (a) the building list the portal makes most (spec section 7: status 1, newest first, groups and
 *     flowGroups included, 50 per page);
 * (b) the building list of the data-management screen (status 1, by name, 20 per page, pages 0–49);
 * (c) the operator list (by last name, 20 per page, pages 0–499, with a name search mixed in).
 *
 * On SQLite all three run twice: with the read caches on (the default) and off (`READ_CACHE=0`).
 * With `DATABASE_URL` set (`scripts/with-postgres.sh npm run bench:api` starts a throw-away cluster)
 * they also run on PostgreSQL, where the read caches are always off. `--db=sqlite` or `--db=postgres`
 * measures one database only.
 * Goals: p99 < 25 ms with the caches on, p99 < 50 ms with them off, on either database. The server's
 * CPU time per request is printed too (all its threads, and its main thread alone): it moves far less
 * than latency with other work on the machine; on PostgreSQL so is the cluster's (its processes' CPU
 * from /proc, the cluster being on this machine). From these, the CPU floor: the least mean latency
 * that CPU per request allows at this many connections on this many CPUs (`cpuFloorMs`).
 *
 * Options: `--connections=N` (default 50: on a 2-core machine the load generator shares the cores with
 * the server, so a run at 10 shows the latency the server itself gives), `--only=a,c` (scenarios),
 * `--mode=cached|uncached` (SQLite configurations), `--duration=S` (seconds measured, default 10),
 * `--profile` (the server runs with `node --cpu-prof`; its profiles in bench/results/profiles/<configuration>/,
 * the main thread's the largest, to open in Chrome DevTools or `node --import tsx bench/lib/profile-summary.ts <file>`),
 * `--keep-data` (leaves the seeded SQLite DATA_DIR in place).
 *
 * Seeding: the server migrates the database and creates the buildings through POST /api/init-data;
 * then, with the server stopped, the operators are inserted straight into the database (SQLite file
 * or PostgreSQL) in one transaction with one precomputed password hash (10,000 argon2id hashes
 * through the API would take minutes). Starts its own servers (temporary DATA_DIR, free ports, no demo data, no simulated robots)
 * and stops them by PID at the end, on errors and on Ctrl-C.
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initDataSchema } from '@portal/contract';
import { round, writeResults, type Figure } from './lib/results.ts';
import { serverEntry } from './lib/fleet-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { loginId: 'bench-admin@example.com', loginPw: 'Bench-Pass-2024!' };
const ORGANIZATIONS = 10;
const BUILDINGS_PER_ORGANIZATION = 100;
const BUILDINGS = ORGANIZATIONS * BUILDINGS_PER_ORGANIZATION;
const OPERATORS = 10_000;
/** `--name=value` of the command line, or undefined. */
const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ??
  (process.argv.includes(`--${name}`) ? '' : undefined);
const positiveInt = (name: string, fallback: number) => {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number, not ${raw}`);
  return n;
};
const CONNECTIONS = positiveInt('connections', 50);
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveInt('duration', 10);
/** Scenario letters to run (`--only=a,c`); all when absent. */
const ONLY =
  option('only')
    ?.split(',')
    .map((s) => s.trim().toLowerCase()) ?? null;
/** SQLite configurations to run (`--mode=cached` or `--mode=uncached`); both when absent. */
const ONLY_MODE = option('mode') ?? null;
/** Leave the seeded DATA_DIR (SQLite file) in place for a look at the queries (`--keep-data`). */
const KEEP_DATA = option('keep-data') !== undefined;
/** Where the server writes its CPU profiles (`--profile`), or null. */
const PROFILE_DIR =
  option('profile') === undefined ? null : fileURLToPath(new URL('results/profiles/', import.meta.url));
const GOAL_CACHED_P99_MS = 25;
const GOAL_UNCACHED_P99_MS = 50;

const PAGE_SIZE = 20;
const BUILDING_PAGES = 50;
const OPERATOR_PAGES = 500;
/** One name search after every this many operator pages. */
const SEARCH_EVERY = 10;
const SEARCH_TEXT = '12';

const PORTAL_FILTER = { where: { status: 1 }, order: 'updatedAt DESC', include: ['groups', 'flowGroups'], limit: 50 };
const buildingPageFilter = (page: number) => ({
  where: { status: 1 },
  order: 'name ASC',
  limit: PAGE_SIZE,
  skip: page * PAGE_SIZE,
});
const operatorPageFilter = (page: number) => ({ order: 'lastName ASC', limit: PAGE_SIZE, skip: page * PAGE_SIZE });
const OPERATOR_SEARCH_FILTER = {
  where: { or: [{ lastName: { like: `%${SEARCH_TEXT}%` } }, { loginId: { like: `%${SEARCH_TEXT}%` } }] },
  limit: PAGE_SIZE,
};
const listPath = (resource: string, filter: unknown) =>
  `/api/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

type DbKind = 'sqlite' | 'postgres';
interface Mode {
  key: string;
  label: string;
  env: Record<string, string>;
  goalMs: number;
}
/** Server configurations measured per database (PostgreSQL runs without the read caches). */
const MODES: Record<DbKind, Mode[]> = {
  sqlite: [
    { key: 'sqlite cached', label: 'SQLite, read caches on (default)', env: {}, goalMs: GOAL_CACHED_P99_MS },
    {
      key: 'sqlite uncached',
      label: 'SQLite, read caches off (READ_CACHE=0)',
      env: { READ_CACHE: '0' },
      goalMs: GOAL_UNCACHED_P99_MS,
    },
  ],
  postgres: [
    { key: 'postgres', label: 'PostgreSQL (no read caches; sessions kept 5 s)', env: {}, goalMs: GOAL_UNCACHED_P99_MS },
  ],
};

/** The databases to measure: `--db=sqlite|postgres`, else SQLite and, when DATABASE_URL is set, PostgreSQL. */
function databases(): DbKind[] {
  const arg = process.argv.find((a) => a.startsWith('--db='))?.slice(5);
  if (arg === 'sqlite' || arg === 'postgres') return [arg];
  if (arg) throw new BenchError(`--db must be sqlite or postgres, not ${arg}`);
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}
/** The PostgreSQL database of the run (scripts/with-postgres.sh sets DATABASE_URL). */
const postgresUrl = () => {
  const url = process.env.DATABASE_URL;
  if (!url) throw new BenchError('PostgreSQL needs DATABASE_URL: run scripts/with-postgres.sh npm run bench:api');
  return url;
};

let server: ChildProcess | null = null;
let dataDir: string | null = null;
const serverLog: string[] = [];

function remember(chunk: Buffer) {
  for (const line of chunk.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    serverLog.push(line);
    if (serverLog.length > 200) serverLog.shift();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function startServer(
  port: number,
  mqttPort: number,
  dir: string,
  extraEnv: Record<string, string>,
  databaseUrl: string | null,
  profileName: string | null,
): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.loginId,
    ADMIN_PASSWORD: ADMIN.loginPw,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    MQTT_PORT: String(mqttPort),
    SIMULATED_ROBOTS: '0',
    RATE_LIMIT_LOGIN: '1000',
    // The API alone is measured: point the web app at a folder without one, so no static hosting.
    WEB_DIST: path.join(dir, 'no-web-app'),
  };
  // The bench measures the database asked for (the SQLite file in DATA_DIR unless a URL is given), in
  // the configuration asked for, whatever the shell has set.
  delete env.DATABASE_URL;
  delete env.READ_CACHE;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const profile =
    PROFILE_DIR && profileName
      ? // One profile per thread (the main one is the largest).
        ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, profileName)}`]
      : [];
  const child = spawn(process.execPath, [...profile, serverEntry()], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, ...extraEnv },
  });
  child.stdout?.on('data', remember);
  child.stderr?.on('data', remember);
  return child;
}

/** Stops the server by its PID: SIGTERM, then SIGKILL after 10 s. */
async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

function removeDataDir() {
  if (dataDir && KEEP_DATA) console.log(`kept ${dataDir} (--keep-data)`);
  else if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
}

async function cleanup() {
  await stopServer();
  removeDataDir();
}

// Last resort if the process goes down some other way: no orphaned server.
process.on('exit', () => {
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeDataDir();
});
process.once('SIGINT', () => {
  console.error('\ninterrupted; stopping the server');
  void cleanup().finally(() => process.exit(130));
});

class BenchError extends Error {}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<number> {
  const started = performance.now();
  let exit: string | null = null;
  child.once('exit', (code, signal) => (exit = `exited with ${signal ?? `code ${code}`}`));
  let last = 'no answer';
  while (performance.now() - started < timeoutMs) {
    if (exit) throw new BenchError(`The server ${exit} before it was ready`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return performance.now() - started;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new BenchError(`GET /api/health did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

/** Starts a server on fresh free ports and waits until it is healthy. Returns its base URL. */
async function launch(
  dir: string,
  extraEnv: Record<string, string>,
  databaseUrl: string | null,
  profileName: string | null = null,
): Promise<string> {
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = Object.entries(extraEnv).map(([k, v]) => `${k}=${v}`);
  console.log(`starting the server on ${base} (MQTT ${mqttPort}${env.length ? `, ${env.join(' ')}` : ''})`);
  server = startServer(port, mqttPort, dir, extraEnv, databaseUrl, profileName);
  const startMs = await waitForHealth(base, server);
  console.log(`healthy after ${Math.round(startMs)} ms (PID ${server.pid})`);
  return base;
}

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // keep the text
  }
  return { status: res.status, headers: res.headers, json };
}

const show = (v: unknown) => JSON.stringify(v).slice(0, 500);

async function login(base: string): Promise<string> {
  const res = await call(base, 'POST', '/api/operators/login', ADMIN);
  const token = (res.json as { token?: unknown } | null)?.token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new BenchError(`POST /api/operators/login answered ${res.status} ${show(res.json)}`);
  }
  return token;
}

/** 10 organizations of 100 buildings each, through POST /api/init-data. Returns the mean ms per call. */
async function seedBuildings(base: string, token: string): Promise<number> {
  const times: number[] = [];
  for (let o = 1; o <= ORGANIZATIONS; o++) {
    const body = initDataSchema.parse({
      organization: { name: `Bench Organization ${o}` },
      buildings: Array.from({ length: BUILDINGS_PER_ORGANIZATION }, (_, b) => ({
        name: `Bench Building ${o}-${b + 1}`,
        floors: [],
      })),
      operators: [],
    });
    const started = performance.now();
    const res = await call(base, 'POST', '/api/init-data', body, token);
    times.push(performance.now() - started);
    if (res.status !== 201)
      throw new BenchError(`POST /api/init-data (#${o}) answered ${res.status} ${show(res.json)}`);
  }
  return times.reduce((a, b) => a + b, 0) / times.length;
}

// ---------------------------------------------------------------- operators, straight into SQLite

/** A name as shown, and in ASCII for the login ID. */
type Name = readonly [shown: string, ascii: string];

const JA_LAST: readonly Name[] = [
  ['佐藤', 'sato'],
  ['鈴木', 'suzuki'],
  ['高橋', 'takahashi'],
  ['田中', 'tanaka'],
  ['伊藤', 'ito'],
  ['渡辺', 'watanabe'],
  ['山本', 'yamamoto'],
  ['中村', 'nakamura'],
  ['小林', 'kobayashi'],
  ['加藤', 'kato'],
];
const JA_FIRST: readonly Name[] = [
  ['太郎', 'taro'],
  ['花子', 'hanako'],
  ['翔太', 'shota'],
  ['陽菜', 'hina'],
  ['健一', 'kenichi'],
  ['美咲', 'misaki'],
  ['大輔', 'daisuke'],
  ['結衣', 'yui'],
];
const LATIN_LAST: readonly Name[] = [
  ['Smith', 'smith'],
  ['García', 'garcia'],
  ['Müller', 'mueller'],
  ['Rossi', 'rossi'],
  ['Martin', 'martin'],
  ['Silva', 'silva'],
  ['Novák', 'novak'],
  ['Dubois', 'dubois'],
  ['Jensen', 'jensen'],
  ['Kowalski', 'kowalski'],
];
const LATIN_FIRST: readonly Name[] = [
  ['Anna', 'anna'],
  ['James', 'james'],
  ['María', 'maria'],
  ['Lukas', 'lukas'],
  ['Sofia', 'sofia'],
  ['Pierre', 'pierre'],
  ['Elena', 'elena'],
  ['Tomás', 'tomas'],
];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so every run seeds the same operators. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface OperatorRow {
  organization_id: number;
  building_id: number | null;
  login_id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  type: number;
  flow_edit_restricted: number;
  language: string;
  auth_mode: string;
  phone: string;
  status: number;
  failed_login_count: number;
  locked_until: string | null;
  must_change_password: number;
  password_changed_at: string | null;
  login_count: number;
  last_login_at: string | null;
  deleted_at: null;
  created_at: string;
  updated_at: string;
}

/**
 * 10,000 operators spread evenly over the organizations and, within each, over its buildings (10 per
 * building): mostly general operators, one area manager in ten, one organization administrator in
 * fifty (no building); one in 25 inactive, a few locked. Last names carry the operator's number, login
 * IDs a different unique staff code, so the name search matches on either.
 */
function makeOperators(buildingsByOrg: Map<number, number[]>, passwordHash: string, now: number): OperatorRow[] {
  const rand = prng(20_241_121);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const orgs = [...buildingsByOrg.keys()];
  const day = 86_400_000;
  const rows: OperatorRow[] = [];
  for (let i = 0; i < OPERATORS; i++) {
    const n = i + 1;
    const orgIndex = i % orgs.length;
    const org = orgs[orgIndex]!;
    const buildings = buildingsByOrg.get(org)!;
    const type = i % 50 === 0 ? 2 : i % 10 === 5 ? 1 : 0;
    const japanese = rand() < 0.6;
    const [last, lastAscii] = pick(japanese ? JA_LAST : LATIN_LAST);
    const [first, firstAscii] = pick(japanese ? JA_FIRST : LATIN_FIRST);
    // 7919 is prime to 100,000, so n ↦ n·7919 mod 100,000 is one-to-one: unique codes.
    const staffCode = String((n * 7919) % 100_000).padStart(5, '0');
    const loginId = `${firstAscii}.${lastAscii}.${staffCode}@bench-org-${orgIndex + 1}.example.com`;
    const created = now - Math.floor(rand() * 365) * day - Math.floor(rand() * day);
    const updated = Math.min(now, created + Math.floor(rand() * 30) * day);
    rows.push({
      organization_id: org,
      building_id: type === 2 ? null : buildings[Math.floor(i / orgs.length) % buildings.length]!,
      login_id: loginId,
      email: loginId,
      password_hash: passwordHash,
      first_name: first,
      last_name: `${last} ${n}`,
      type,
      flow_edit_restricted: type === 0 && i % 7 === 3 ? 1 : 0,
      language: japanese ? 'ja' : 'en',
      auth_mode: 'none',
      phone: '',
      status: i % 25 === 7 ? 0 : 1,
      failed_login_count: 0,
      locked_until: i % 200 === 13 ? '9999-12-31T00:00:00.000Z' : null,
      must_change_password: 0,
      password_changed_at: null,
      login_count: i % 3 === 0 ? 0 : 1 + Math.floor(rand() * 200),
      last_login_at: i % 3 === 0 ? null : new Date(now - Math.floor(rand() * 30 * day)).toISOString(),
      deleted_at: null,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updated).toISOString(),
    });
  }
  return rows;
}

interface Seeded {
  insertMs: number;
  /** What the lists must answer as X-Total-Count for the bench administrator (who sees everything). */
  activeBuildings: number;
  liveOperators: number;
  searchMatches: number;
}

/** Inserts the operators into the (stopped) server's PostgreSQL database in one transaction. */
async function insertOperatorsPostgres(url: string): Promise<Seeded> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const one = async <T>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows as T[];
    const [admin] = await one<{ password_hash: string }>('SELECT password_hash FROM operators WHERE login_id = $1', [
      ADMIN.loginId,
    ]);
    if (!admin) throw new BenchError(`The bench administrator ${ADMIN.loginId} is not in the database`);
    const buildingRows = await one<{ id: number; org: number }>(
      `SELECT b.id, b.organization_id AS org FROM buildings b JOIN organizations o ON o.id = b.organization_id
       WHERE o.name LIKE 'Bench Organization %' ORDER BY b.organization_id, b.id`,
    );
    const buildingsByOrg = new Map<number, number[]>();
    for (const b of buildingRows) buildingsByOrg.set(b.org, [...(buildingsByOrg.get(b.org) ?? []), b.id]);
    if (buildingsByOrg.size !== ORGANIZATIONS || buildingRows.length !== BUILDINGS) {
      throw new BenchError(
        `Expected ${ORGANIZATIONS} bench organizations with ${BUILDINGS} buildings, found ${buildingsByOrg.size} with ${buildingRows.length}`,
      );
    }
    const [{ n: before } = { n: 0 }] = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM operators WHERE deleted_at IS NULL',
    );
    const rows = makeOperators(buildingsByOrg, admin.password_hash, Date.now());
    const columns = Object.keys(rows[0]!) as Array<keyof OperatorRow>;
    const started = performance.now();
    // with-postgres.sh runs the cluster with synchronous_commit off; a commit whose WAL is not yet
    // flushed lets no hint bits be set, so the VACUUM below would leave the visibility map empty and
    // every index-only scan of the run would read the table too (a production server commits
    // synchronously and autovacuum gets there). Commit this one synchronously.
    await db.query('SET synchronous_commit = on');
    await db.query('BEGIN');
    const BATCH = 500;
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      const values: unknown[] = [];
      const tuples = batch.map((row) => {
        const marks = columns.map((c) => {
          values.push(row[c]);
          return `$${values.length}`;
        });
        return `(${marks.join(', ')})`;
      });
      await db.query(`INSERT INTO operators (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
    }
    await db.query('COMMIT');
    const insertMs = performance.now() - started;
    // The tables as autovacuum leaves them after a bulk load (planner statistics, and the visibility map
    // index-only scans need), rather than autovacuum doing it in the middle of a measurement.
    await db.query('VACUUM ANALYZE');
    const live = await one<{ login_id: string; last_name: string }>(
      'SELECT login_id, last_name FROM operators WHERE deleted_at IS NULL',
    );
    if (live.length !== before + OPERATORS) {
      throw new BenchError(`${live.length} live operators after inserting ${OPERATORS} to ${before}`);
    }
    const [{ n: activeBuildings } = { n: 0 }] = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM buildings WHERE status = 1',
    );
    return {
      insertMs,
      activeBuildings,
      liveOperators: live.length,
      searchMatches: live.filter((r) => r.last_name.includes(SEARCH_TEXT) || r.login_id.includes(SEARCH_TEXT)).length,
    };
  } finally {
    await db.end();
  }
}

/** Inserts the operators into the (stopped) server's SQLite file in one transaction. */
function insertOperators(file: string): Seeded {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const admin = db.prepare('SELECT password_hash FROM operators WHERE login_id = ?').get(ADMIN.loginId) as
      { password_hash: string } | undefined;
    if (!admin) throw new BenchError(`The bench administrator ${ADMIN.loginId} is not in ${file}`);
    const buildingRows = db
      .prepare(
        `SELECT b.id, b.organization_id AS org FROM buildings b JOIN organizations o ON o.id = b.organization_id
         WHERE o.name LIKE 'Bench Organization %' ORDER BY b.organization_id, b.id`,
      )
      .all() as Array<{ id: number; org: number }>;
    const buildingsByOrg = new Map<number, number[]>();
    for (const b of buildingRows) buildingsByOrg.set(b.org, [...(buildingsByOrg.get(b.org) ?? []), b.id]);
    if (buildingsByOrg.size !== ORGANIZATIONS || buildingRows.length !== BUILDINGS) {
      throw new BenchError(
        `Expected ${ORGANIZATIONS} bench organizations with ${BUILDINGS} buildings, found ${buildingsByOrg.size} with ${buildingRows.length}`,
      );
    }
    const before = (db.prepare('SELECT count(*) AS n FROM operators WHERE deleted_at IS NULL').get() as { n: number })
      .n;

    const rows = makeOperators(buildingsByOrg, admin.password_hash, Date.now());
    const columns = Object.keys(rows[0]!);
    const insert = db.prepare(
      `INSERT INTO operators (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const started = performance.now();
    db.transaction((all: OperatorRow[]) => {
      for (const row of all) insert.run(row);
    })(rows);
    const insertMs = performance.now() - started;

    const live = db.prepare('SELECT login_id, last_name FROM operators WHERE deleted_at IS NULL').all() as Array<{
      login_id: string;
      last_name: string;
    }>;
    if (live.length !== before + OPERATORS) {
      throw new BenchError(`${live.length} live operators after inserting ${OPERATORS} to ${before}`);
    }
    const activeBuildings = (db.prepare('SELECT count(*) AS n FROM buildings WHERE status = 1').get() as { n: number })
      .n;
    return {
      insertMs,
      activeBuildings,
      liveOperators: live.length,
      // Counted here rather than with SQL LIKE, so the server's answer is checked against an independent count.
      searchMatches: live.filter((r) => r.last_name.includes(SEARCH_TEXT) || r.login_id.includes(SEARCH_TEXT)).length,
    };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- checks and load

interface Expectation {
  total: number;
  length: number;
  order?: { field: string; dir: 'ASC' | 'DESC' };
  /** A problem with one item, or null. */
  item?: (it: Record<string, unknown>) => string | null;
}

/** One request by hand first: the bench must measure the right answer, not a fast error. */
async function checkList(base: string, pathAndQuery: string, token: string, exp: Expectation) {
  const what = `GET ${decodeURIComponent(pathAndQuery)}`;
  const res = await call(base, 'GET', pathAndQuery, undefined, token);
  if (res.status !== 200) throw new BenchError(`${what} answered ${res.status} ${show(res.json)}`);
  const items = res.json as Array<Record<string, unknown>>;
  if (!Array.isArray(items)) throw new BenchError(`${what} did not answer an array: ${show(res.json)}`);
  const problems: string[] = [];
  if (items.length !== exp.length) problems.push(`${items.length} items instead of ${exp.length}`);
  const total = res.headers.get('x-total-count');
  if (Number(total) !== exp.total) problems.push(`X-Total-Count is ${total}, expected ${exp.total}`);
  items.forEach((it, i) => {
    const problem = exp.item?.(it);
    if (problem) problems.push(`item ${i} ${problem}`);
    const prev = items[i - 1];
    if (exp.order && prev) {
      const [a, b] = [String(prev[exp.order.field]), String(it[exp.order.field])];
      if (exp.order.dir === 'ASC' ? a > b : a < b) problems.push(`item ${i} is out of ${exp.order.field} order`);
    }
  });
  if (problems.length > 0) throw new BenchError(`${what} answered wrongly: ${problems.slice(0, 5).join('; ')}`);
  return { total: exp.total, bytes: JSON.stringify(items).length };
}

interface Scenario {
  key: string;
  title: string;
  /** Request paths, taken in turn by all connections together (one shared cursor). */
  paths: string[];
  /** Requests checked by hand before the load: the first one and any other kind in the mix. */
  checks: Array<{ path: string; exp: Expectation }>;
}

function scenarios(seeded: Seeded): Scenario[] {
  const statusOne = (it: Record<string, unknown>) => (it.status === 1 ? null : `has status ${show(it.status)}`);
  const lastBuildingPage = BUILDING_PAGES - 1;
  const lastOperatorPage = OPERATOR_PAGES - 1;
  const operatorPaths: string[] = [];
  const searchPath = listPath('operators', OPERATOR_SEARCH_FILTER);
  for (let p = 0; p < OPERATOR_PAGES; p++) {
    operatorPaths.push(listPath('operators', operatorPageFilter(p)));
    if (p % SEARCH_EVERY === SEARCH_EVERY - 1) operatorPaths.push(searchPath);
  }
  const pageLength = (page: number, total: number) => Math.max(0, Math.min(PAGE_SIZE, total - page * PAGE_SIZE));
  return [
    {
      key: '(a) buildings, portal list',
      title: 'status 1, updatedAt DESC, groups + flowGroups, 50 per page',
      paths: [listPath('buildings', PORTAL_FILTER)],
      checks: [
        {
          path: listPath('buildings', PORTAL_FILTER),
          exp: {
            total: seeded.activeBuildings,
            length: PORTAL_FILTER.limit,
            order: { field: 'updatedAt', dir: 'DESC' },
            item: (it) =>
              statusOne(it) ??
              (Array.isArray(it.groups) && Array.isArray(it.flowGroups) ? null : 'lacks groups/flowGroups'),
          },
        },
      ],
    },
    {
      key: '(b) buildings, data management',
      title: `status 1, name ASC, ${PAGE_SIZE} per page, pages 0–${lastBuildingPage}`,
      paths: Array.from({ length: BUILDING_PAGES }, (_, p) => listPath('buildings', buildingPageFilter(p))),
      checks: [0, lastBuildingPage].map((p) => ({
        path: listPath('buildings', buildingPageFilter(p)),
        exp: {
          total: seeded.activeBuildings,
          length: pageLength(p, seeded.activeBuildings),
          order: { field: 'name', dir: 'ASC' },
          item: statusOne,
        },
      })),
    },
    {
      key: '(c) operators',
      title:
        `lastName ASC, ${PAGE_SIZE} per page, pages 0–${lastOperatorPage}, ` +
        `plus 1 in ${SEARCH_EVERY + 1} a search for "${SEARCH_TEXT}" in lastName or loginId`,
      paths: operatorPaths,
      checks: [
        ...[0, lastOperatorPage].map((p) => ({
          path: listPath('operators', operatorPageFilter(p)),
          exp: {
            total: seeded.liveOperators,
            length: pageLength(p, seeded.liveOperators),
            order: { field: 'lastName', dir: 'ASC' as const },
          },
        })),
        {
          path: searchPath,
          exp: {
            total: seeded.searchMatches,
            length: Math.min(PAGE_SIZE, seeded.searchMatches),
            item: (it) =>
              String(it.lastName).includes(SEARCH_TEXT) || String(it.loginId).includes(SEARCH_TEXT)
                ? null
                : `(${show(it.lastName)}, ${show(it.loginId)}) does not contain "${SEARCH_TEXT}"`,
          },
        },
      ],
    },
  ];
}

function runCannon(
  opts: autocannon.Options,
  onResponse?: (status: number, ms: number, connection: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err: unknown, result: autocannon.Result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
    );
    // Each connection (autocannon's client) numbered in the order it first answers.
    const numbers = new Map<unknown, number>();
    const numberOf = (client: unknown) => numbers.get(client) ?? numbers.set(client, numbers.size).get(client)!;
    if (onResponse) instance.on('response', (client, status, _bytes, ms) => onResponse(status, ms, numberOf(client)));
  });
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere), or,
 * with `mainThread`, its main thread's alone (whose thread id is the process's).
 * Per request, it is the server's cost; it moves far less than latency with other work on the machine
 * (docs/performance.md "What this machine allows": the machine's own speed still moves it).
 */
function processCpuMs(pid: number | undefined, mainThread = false): number | null {
  if (!pid || process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15, in clock ticks (100 per second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) the PostgreSQL cluster's processes have used so far: its backends (the server's pool
 * connections among them) and background processes as `pg_stat_activity` lists them, read from /proc
 * (the cluster runs on this machine). Null without PostgreSQL or /proc. A backend that ends during the
 * run takes its share with it, so this is a lower bound; the pool keeps its connections under load.
 */
async function postgresCpuMs(url: string | null): Promise<number | null> {
  if (!url || process.platform !== 'linux') return null;
  const db = new pg.Client({ connectionString: url });
  try {
    await db.connect();
    const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
    let sum = 0;
    for (const { pid } of rows) sum += processCpuMs(pid) ?? 0;
    return sum;
  } catch {
    return null;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Warm-up, then the measured run of one scenario against the running server. Returns its figures. */
async function measure(base: string, token: string, scenario: Scenario, mode: Mode, databaseUrl: string | null) {
  let cursor = 0;
  const opts: autocannon.Options = {
    url: base,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${token}` },
    // One shared cursor: the connections together walk the pages in order, round and round.
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: scenario.paths[cursor++ % scenario.paths.length]! }),
      },
    ],
  };
  // Warm-up and measurement are one run on the same connections: the measured requests are those sent
  // after the warm-up. (A second run on fresh connections measured their start instead: on any Node
  // server under this load, a new connection's first request can wait behind the others' for up to 1.6 s,
  // which was the max and most of the p99 of every scenario; see docs/performance.md.)
  let markAt = Number.POSITIVE_INFINITY;
  let endAt = Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  /** The connection of each latency (same index). */
  const connections: number[] = [];
  let non2xx = 0;
  let before: {
    load: number;
    cpu: number | null;
    mainCpu: number | null;
    pgCpu: number | null;
    bench: NodeJS.CpuUsage;
  } | null = null;
  const marking = new Promise<void>((resolve) =>
    setTimeout(() => {
      markAt = performance.now();
      endAt = markAt + DURATION_SECONDS * 1000;
      const cpu = processCpuMs(server?.pid);
      const mainCpu = processCpuMs(server?.pid, true);
      const bench = process.cpuUsage();
      // Other work on the machine (its CPUs are shared with the load generator) moves these figures.
      const load = os.loadavg()[0] ?? 0;
      void postgresCpuMs(databaseUrl).then(
        (pgCpu) => ((before = { load, cpu, mainCpu, pgCpu, bench }), resolve()),
        () => ((before = { load, cpu, mainCpu, pgCpu: null, bench }), resolve()),
      );
    }, WARMUP_SECONDS * 1000),
  );
  const result = await runCannon({ ...opts, duration: WARMUP_SECONDS + DURATION_SECONDS }, (status, ms, connection) => {
    const now = performance.now();
    if (now - ms < markAt || now > endAt) return;
    if (status >= 200 && status < 300) {
      latencies.push(ms);
      connections.push(connection);
    } else non2xx += 1;
  });
  await marking;
  const { load, cpu: cpuBefore, mainCpu: mainCpuBefore, pgCpu: pgCpuBefore, bench: benchCpuBefore } = before!;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const cpuAfter = processCpuMs(server?.pid);
  const mainCpuAfter = processCpuMs(server?.pid, true);
  const pgCpuAfter = pgCpuBefore === null ? null : await postgresCpuMs(databaseUrl);
  const sorted = Float64Array.from(latencies).sort();
  const p99 = percentile(sorted, 99);
  const slow = slowConnections(latencies, connections, percentile(sorted, 50));
  const total = latencies.length + non2xx;
  const perSecond = total / DURATION_SECONDS;
  const pgCpuPerRequest =
    pgCpuBefore !== null && pgCpuAfter !== null && total > 0 ? (pgCpuAfter - pgCpuBefore) / total : null;
  const serverCpuPerRequest =
    cpuBefore !== null && cpuAfter !== null && total > 0 ? (cpuAfter - cpuBefore) / total : null;
  const mainCpuPerRequest =
    mainCpuBefore !== null && mainCpuAfter !== null && total > 0 ? (mainCpuAfter - mainCpuBefore) / total : null;
  const benchCpuPerRequest = total > 0 ? (benchCpu.user + benchCpu.system) / 1000 / total : null;
  const floor =
    serverCpuPerRequest !== null && mainCpuPerRequest !== null && benchCpuPerRequest !== null
      ? cpuFloorMs(mainCpuPerRequest, serverCpuPerRequest + (pgCpuPerRequest ?? 0) + benchCpuPerRequest)
      : null;
  const row = `${scenario.key} · ${mode.key}${CONNECTIONS === 50 ? '' : ` · ${CONNECTIONS} conn.`}`;
  const fig = (column: string, value: number, unit: string, goal?: { text: string; met: boolean }): Figure => ({
    name: `${scenario.key}, ${mode.label}: ${column}`,
    value,
    unit,
    ...(goal ? { goal: goal.text, met: goal.met } : {}),
    row,
    column,
  });
  const figures: Figure[] = [
    fig('req/s', perSecond, 'req/s'),
    fig('p50 ms', percentile(sorted, 50), 'ms'),
    fig('p95 ms', percentile(sorted, 95), 'ms'),
    fig('p99 ms', p99, 'ms', { text: `p99 < ${mode.goalMs} ms`, met: p99 < mode.goalMs }),
    fig('max ms', sorted.at(-1) ?? Number.NaN, 'ms'),
    fig('errors', result.errors, 'count', { text: '0', met: result.errors === 0 }),
    fig('non-2xx', non2xx, 'count', { text: '0', met: non2xx === 0 }),
    fig('requests', total, 'requests'),
    ...(serverCpuPerRequest === null ? [] : [fig('server CPU/req ms', serverCpuPerRequest, 'ms')]),
    ...(mainCpuPerRequest === null ? [] : [fig('main thread CPU/req ms', mainCpuPerRequest, 'ms')]),
    ...(pgCpuPerRequest === null ? [] : [fig('PostgreSQL CPU/req ms', pgCpuPerRequest, 'ms')]),
    ...(benchCpuPerRequest === null ? [] : [fig('bench CPU/req ms', benchCpuPerRequest, 'ms')]),
    ...(floor === null ? [] : [fig('CPU floor ms', floor, 'ms')]),
    fig('load avg', load, 'load'),
  ];
  console.log(
    `  ${round(perSecond)} req/s, p99 ${round(p99)} ms` +
      (serverCpuPerRequest === null ? '' : `, server CPU ${round(serverCpuPerRequest)} ms/req`) +
      (mainCpuPerRequest === null ? '' : ` (main thread ${round(mainCpuPerRequest)})`) +
      (pgCpuPerRequest === null ? '' : `, PostgreSQL CPU ${round(pgCpuPerRequest)} ms/req`) +
      `, ${non2xx} non-2xx, ${result.errors} errors` +
      (result.statusCodeStats ? `; status codes ${JSON.stringify(result.statusCodeStats)}` : ''),
  );
  if (slow) console.log(`  ${slow}`);
  if (floor !== null) {
    console.log(
      `  CPU floor of the mean latency: ${round(floor)} ms (${CONNECTIONS} connections × the larger of the server's ` +
        `main thread per request and all CPU per request over ${os.availableParallelism()} CPUs)`,
    );
  }
  return figures;
}

/**
 * The least mean latency the CPU each request needs allows (docs/performance.md "What this machine
 * allows"). The load is closed: each connection sends its next request when it has its answer, so by
 * Little's law the mean latency is the connections over the throughput. The throughput is at most one
 * request per `mainMs` (the server's main thread runs one thing at a time) and at most the CPUs over
 * `allMs` (the server, PostgreSQL and the load generator share them). A p99 below this floor cannot
 * be had on this machine by ordering or scheduling; only by less CPU per request or more CPUs.
 */
function cpuFloorMs(mainMs: number, allMs: number): number {
  return CONNECTIONS * Math.max(mainMs, allMs / os.availableParallelism());
}

/**
 * Where the slow requests (over 1.5 times the median) were: their share of all requests, and how many
 * of them came from the two connections with the most (docs/performance.md "Who the p99 is"). Null
 * when no request was that slow.
 */
function slowConnections(latencies: number[], connections: number[], p50: number): string | null {
  const slowBy = new Map<number, number>();
  const allBy = new Map<number, number>();
  let slow = 0;
  latencies.forEach((ms, i) => {
    const c = connections[i]!;
    allBy.set(c, (allBy.get(c) ?? 0) + 1);
    if (ms <= 1.5 * p50) return;
    slow += 1;
    slowBy.set(c, (slowBy.get(c) ?? 0) + 1);
  });
  if (slow === 0) return null;
  const worst = [...slowBy].sort((a, b) => b[1] - a[1]).slice(0, 2);
  const onWorst = worst.reduce((n, [, k]) => n + k, 0);
  const counts = [...allBy.values()].sort((a, b) => a - b);
  const median = counts[Math.floor(counts.length / 2)] ?? 0;
  const share = (n: number, of: number) => `${round((100 * n) / of)} %`;
  return (
    `slow (over 1.5 x p50): ${slow} requests (${share(slow, latencies.length)}), ${share(onWorst, slow)} of them ` +
    `on ${worst.length} of ${allBy.size} connections, which were answered ` +
    `${worst.map(([c]) => allBy.get(c)).join(' and ')} times against a median of ${median}`
  );
}

/** Seeds one database and measures every scenario in each of its server configurations. */
async function runDatabase(kind: DbKind): Promise<Figure[]> {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
  const url = kind === 'postgres' ? postgresUrl() : null;
  console.log(`\n=== ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'} (DATA_DIR ${dataDir})`);

  // 1. Migrate, create the administrator and the buildings through the API.
  let base = await launch(dataDir, {}, url);
  let token = await login(base);
  console.log(`seeding ${ORGANIZATIONS} organizations × ${BUILDINGS_PER_ORGANIZATION} buildings`);
  const seedMs = await seedBuildings(base, token);
  await stopServer();

  // 2. The operators, straight into the database while no server has it open.
  console.log(`inserting ${OPERATORS} operators`);
  const seeded = url ? await insertOperatorsPostgres(url) : insertOperators(path.join(dataDir, 'portal.db'));
  console.log(
    `  ${Math.round(seeded.insertMs)} ms; ${seeded.liveOperators} live operators, ` +
      `${seeded.searchMatches} matching "${SEARCH_TEXT}", ${seeded.activeBuildings} buildings with status 1`,
  );

  // 3. Every scenario against the same data, in each server configuration.
  const figures: Figure[] = [];
  const list = scenarios(seeded).filter((s) => !ONLY || ONLY.includes(s.key.slice(1, 2)));
  const modes = MODES[kind].filter((m) => kind !== 'sqlite' || !ONLY_MODE || m.key === `sqlite ${ONLY_MODE}`);
  if (list.length === 0 || modes.length === 0) throw new BenchError('--only or --mode leaves nothing to measure');
  for (const mode of modes) {
    console.log(`\n${mode.label}`);
    base = await launch(dataDir, mode.env, url, mode.key.replace(' ', '-'));
    token = await login(base);
    for (const scenario of list) {
      console.log(`${scenario.key}: ${scenario.title}`);
      for (const { path: p, exp } of scenario.checks) {
        const checked = await checkList(base, p, token, exp);
        console.log(`  checked GET ${decodeURIComponent(p)}: ${checked.total} in total, ${checked.bytes} bytes`);
      }
      console.log(`  warm-up ${WARMUP_SECONDS} s, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
      figures.push(...(await measure(base, token, scenario, mode, url)));
    }
    await stopServer();
  }
  removeDataDir();

  figures.push(
    { name: `${kind} seed: POST /api/init-data, 100 buildings (mean)`, value: seedMs, unit: 'ms' },
    { name: `${kind} seed: ${OPERATORS} operators inserted (one transaction)`, value: seeded.insertMs, unit: 'ms' },
  );
  return figures;
}

async function main() {
  const figures: Figure[] = [];
  for (const kind of databases()) figures.push(...(await runDatabase(kind)));
  writeResults('api', figures);
  if (serverLog.length > 0) {
    console.log(`\nserver output (last ${Math.min(serverLog.length, 20)} lines, LOG_LEVEL=warn):`);
    for (const line of serverLog.slice(-20)) console.log(`  ${line.slice(0, 300)}`);
  }
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(
    `\nbench:api failed: ${err instanceof BenchError ? err.message : ((err as Error).stack ?? String(err))}`,
  );
  if (serverLog.length > 0) {
    console.error(`server output (last ${Math.min(serverLog.length, 40)} lines):`);
    for (const line of serverLog.slice(-40)) console.error(`  ${line.slice(0, 500)}`);
  }
  await cleanup();
  process.exitCode = 1;
}
