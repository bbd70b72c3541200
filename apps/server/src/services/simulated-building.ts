import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/time.ts';
import { createOutbound, type Outbound } from '../lib/outbound.ts';
import { repoRoot } from '../lib/paths.ts';
import { linksRepo } from '../modules/buildings/links-repo.ts';

/** The demo building's elevator bank (it serves every floor) and security doors (docs/building-systems.md). */
export const DEMO_ELEVATOR_BANK = 'A';
export const DEMO_SECURITY_DOORS = ['door-1', 'door-2'] as const;
/** How long the simulator may take to start listening. */
const START_TIMEOUT_MS = 20_000;

/** A link the demo set itself: the simulator on this machine (any port), replaced at every start. */
const isSimulatorLink = (url: string) => /^http:\/\/127\.0\.0\.1:\d+\/?$/.test(url.trim());

export interface SimulatedBuilding {
  /** Base URL of the simulator's building-systems HTTP API, now the building's T-Spider link. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The demo building's elevators and security doors: runs the simulator's building-systems controller
 * (robot-sim `building-systems/cli.ts`, a child process: apps never import each other) on
 * 127.0.0.1 and a free port, with one elevator bank serving `floorIndexes` and two security doors,
 * and links the building to it (its T-Spider URL), so a multi-floor flow of the demo rides the
 * elevator. A building linked to something else keeps its link and gets no simulator. Null when it
 * does not start (logged).
 */
export async function startSimulatedBuilding(opts: {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  clock: Clock;
  building: { id: number; organization_id: number };
  floorIndexes: readonly number[];
  /** The URL is admitted by the flow runner's outbound calls (see `simulatedBuildingOutbound`). */
  admit?: ((url: string) => void) | undefined;
  /** The simulator's entry point (tests); default robot-sim's. */
  cli?: string;
}): Promise<SimulatedBuilding | null> {
  const { log } = opts;
  const links = linksRepo(opts.db);
  const current = (await links.find(opts.building.id))?.t_spider_url.trim() ?? '';
  if (current !== '' && !isSimulatorLink(current)) {
    log.info({ link: current }, 'simulated building systems skipped: the demo building is linked to its own');
    return null;
  }
  const cli = opts.cli ?? join(repoRoot, 'apps/robot-sim/src/building-systems/cli.ts');
  if (!existsSync(cli)) {
    log.warn({ cli }, 'simulated building systems skipped: the simulator is not installed');
    return null;
  }
  const floors = [...new Set(opts.floorIndexes)].sort((a, b) => a - b);
  const args = ['--import', 'tsx', cli, '--bank', `${DEMO_ELEVATOR_BANK}:${floors.join(',')}`];
  for (const door of DEMO_SECURITY_DOORS) args.push('--door', door);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  child.stderr?.on('data', (d: Buffer) => log.warn({ simulator: d.toString('utf8').trim() }, 'building systems'));
  let stopping = false;

  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    child.kill('SIGTERM');
    const timeout = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timeout);
  };

  const url = await new Promise<string | null>((done) => {
    let out = '';
    const timer = setTimeout(() => done(null), START_TIMEOUT_MS);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const line = out.split('\n')[0];
      if (!out.includes('\n') || line === undefined) return;
      clearTimeout(timer);
      try {
        const { url } = JSON.parse(line) as { url?: unknown };
        done(typeof url === 'string' ? url : null);
      } catch {
        done(null);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      done(null);
    });
  });
  if (!url) {
    await stop();
    log.warn('simulated building systems did not start');
    return null;
  }
  child.on('exit', (code, signal) => {
    if (!stopping) log.warn({ code, signal }, 'the simulated building systems stopped');
  });

  opts.admit?.(url);
  const at = opts.clock().toISOString();
  await links.upsert(
    {
      building_id: opts.building.id,
      organization_id: opts.building.organization_id,
      t_spider_url: url,
      hakaru_ai_login_id: '',
      hakaru_ai_password: null,
      lilz_token: null,
      kanriroid_token: null,
      updated_at: at,
    },
    { t_spider_url: url, updated_at: at },
  );
  log.info({ url, bank: DEMO_ELEVATOR_BANK, floors, doors: DEMO_SECURITY_DOORS }, 'simulated building systems started');
  return { url, stop };
}

/**
 * The flow runner's outbound HTTP with the demo's simulated building admitted: calls to an admitted
 * origin (the simulator on 127.0.0.1, plain HTTP) go through a helper that allows that loopback
 * address; every other call goes through `base` (the configuration's rules) unchanged.
 */
export function simulatedBuildingOutbound(base: Outbound): { outbound: Outbound; admit(url: string): void } {
  const origins = new Set<string>();
  const loopback = createOutbound({ allow: ['127.0.0.1'], protocols: ['http:'] });
  const pick = (raw: string | URL): Outbound => {
    try {
      return origins.has(new URL(raw).origin) ? loopback : base;
    } catch {
      return base;
    }
  };
  return {
    outbound: {
      check: (raw) => pick(raw).check(raw),
      send: (raw, init) => pick(raw).send(raw, init),
    },
    admit(url) {
      origins.add(new URL(url).origin);
    },
  };
}
