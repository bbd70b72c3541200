import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, stderrLog, type Db } from './db/database.ts';
import { migrate } from './db/migrator.ts';
import { createAudit } from './services/audit.ts';
import { createMailer, type Mailer } from './services/mailer.ts';
import { createReadCaches } from './services/read-cache.ts';
import { createFileStore } from './services/file-store.ts';
import { systemClock } from './lib/time.ts';
import { startRobotLink } from './modules/robot-link/index.ts';
import { startDemoBuildingSystems, startSimulatedFleet, type SimulatedFleet } from './services/simulated-fleet.ts';
import { simulatedBuildingOutbound, type SimulatedBuilding } from './services/simulated-building.ts';
import { outboundFromConfig } from './lib/outbound.ts';
import { DEMO_ACCOUNTS, ensureAdmin, isEmpty, seedDemo, seedDemoMaps } from './seed.ts';
import { ensureDefaultTerms } from './modules/terms/terms-service.ts';

export interface RunningServer {
  app: FastifyInstance;
  config: Config;
  url: string;
  stop(): Promise<void>;
}

/** Opens and migrates the database, seeds, starts the broker, listens. */
export async function startServer(config: Config = loadConfig()): Promise<RunningServer> {
  let ready = false;
  // The mailer and the robot link need a logger before the app exists; they get the app's once built.
  let app: FastifyInstance | null = null;
  const lazyLog = new Proxy({} as FastifyInstance['log'], {
    get: (_t, prop) => (app ? Reflect.get(app.log, prop) : () => undefined),
  });
  // A connection lost before the app (and its logger) exists, during migrations say, goes to stderr.
  const db: Db = openDatabase(config.database, { warn: (o, msg) => (app ? app.log : stderrLog).warn(o, msg) });
  let mailer: Mailer | null = null;
  let robotLink: Awaited<ReturnType<typeof startRobotLink>> | null = null;
  let simulated: SimulatedFleet | null = null;
  let buildingSystems: SimulatedBuilding | null = null;
  try {
    await migrate(db.kysely as never, db.dialect);
    const empty = await isEmpty(db.kysely);
    const now = systemClock();
    const createdAdmin = config.admin ? await ensureAdmin(db.kysely, config.admin, now) : false;
    const seeded = empty && config.seedDemo;
    if (seeded) await seedDemo(db.kysely, now);
    await ensureDefaultTerms(db.kysely, now);

    const audit = createAudit(db.kysely, systemClock);
    const ctxBase = { config, db: db.kysely, dialect: db.dialect, dbVersion: db.version, clock: systemClock, audit };
    mailer = createMailer({
      db: db.kysely,
      clock: systemClock,
      log: lazyLog,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
    });
    const fileStore = createFileStore({ dir: join(config.dataDir, 'files'), db: db.kysely, clock: systemClock });
    if (seeded) {
      await seedDemoMaps(db.kysely, { dialect: db.dialect, fileStore, apiBase: config.apiBase }, now);
    }
    const caches = createReadCaches(db.dataVersion, db.cacheable && config.readCache, systemClock, config.readCache);
    robotLink = await startRobotLink({ config, db: db.kysely, log: lazyLog, clock: systemClock });
    // The flow runner reaches the demo's simulated building systems (on 127.0.0.1) once they start.
    const demoBuilding = simulatedBuildingOutbound(outboundFromConfig(config));
    app = await buildApp({
      ctx: { ...ctxBase, mailer, fileStore, caches, robotLink: robotLink.link },
      isReady: () => ready,
      outbound: demoBuilding.outbound,
    });

    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    ready = true;
    if (config.simulatedRobots > 0) {
      simulated = await startSimulatedFleet({
        db: db.kysely,
        dialect: db.dialect,
        link: robotLink.link,
        log: app.log,
        clock: systemClock,
        count: config.simulatedRobots,
        dataDir: config.dataDir,
        buildingSystems: config.simulatedBuildingSystems ? { admit: demoBuilding.admit } : undefined,
      });
    } else if (config.simulatedBuildingSystems) {
      // Without robots (SIMULATED_BUILDING_SYSTEMS=1, SIMULATED_ROBOTS=0): robots come from elsewhere (e2e).
      buildingSystems = await startDemoBuildingSystems({
        db: db.kysely,
        log: app.log,
        clock: systemClock,
        admit: demoBuilding.admit,
      });
    }
    printBanner(url, config, {
      seeded,
      createdAdmin,
      simulated: simulated?.robots ?? 0,
      buildingSystems: simulated?.buildingSystems ?? buildingSystems?.url ?? null,
    });

    const running = app;
    const m = mailer;
    const rl = robotLink;
    const sim = simulated;
    const systems = buildingSystems;
    return {
      app: running,
      config,
      url,
      async stop() {
        ready = false;
        // close() stops accepting connections and waits for in-flight requests to finish.
        await sim?.stop();
        await systems?.stop();
        await running.close();
        await rl.stop();
        await m.drain();
        m.close();
        await db.close();
      },
    };
  } catch (err) {
    await simulated?.stop().catch(() => undefined);
    await buildingSystems?.stop().catch(() => undefined);
    await robotLink?.stop().catch(() => undefined);
    mailer?.close();
    await db.close().catch(() => undefined);
    throw err;
  }
}

function printBanner(
  url: string,
  config: Config,
  info: { seeded: boolean; createdAdmin: boolean; simulated: number; buildingSystems?: string | null },
): void {
  const lines = [
    '',
    `  Robot Portal is running at ${url}`,
    `  API docs: ${url}${config.apiBase}/docs`,
    `  Database: ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`,
    `  MQTT: ${config.mqtt.kind === 'embedded' ? `embedded broker on port ${config.mqtt.port}` : config.mqtt.url.replace(/\/\/[^@/]*@/, '//')}`,
    `  Mail: ${config.smtpUrl ? 'sent through SMTP' : 'not sent; kept in the delivery log (System > Delivery log)'}`,
  ];
  if (info.simulated > 0) {
    lines.push(`  Simulated robots: ${info.simulated} on the demo building (SIMULATED_ROBOTS=0 turns them off)`);
  }
  if (info.buildingSystems) lines.push(`  Simulated elevators and security doors: ${info.buildingSystems}`);
  if (info.createdAdmin && config.admin) lines.push(`  Created system administrator ${config.admin.email}`);
  if (info.seeded) {
    lines.push('', '  Demo accounts (login ID / password):');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.loginId.padEnd(24)} ${a.password.padEnd(20)} ${a.role}`);
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');
}
