import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import { APP_VERSION, MAP_IMAGE_MAX_BYTES } from '@portal/contract';
import type { AppContext } from './context.ts';
import { AppError } from './lib/errors.ts';
import { CHECK_RESPONSES, compiledSerializer, sameAsZod } from './lib/serializer.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { serializeRequest } from './plugins/request-log.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { myRoutes } from './modules/my/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { publicRoutes } from './modules/public/routes.ts';
import { organizationRoutes } from './modules/organizations/routes.ts';
import { operatorRoutes } from './modules/operators/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { termRoutes } from './modules/terms/routes.ts';
import { buildingRoutes } from './modules/buildings/routes.ts';
import { floorRoutes } from './modules/floors/routes.ts';
import { fileRoutes } from './modules/files/routes.ts';
import { robotRoutes } from './modules/robots/routes.ts';
import { mapRoutes } from './modules/maps/routes.ts';
import { mapSessionRoutes } from './modules/map-sessions/routes.ts';
import { poseRoutes } from './modules/poses/routes.ts';
import { flowRoutes } from './modules/flows/routes.ts';
import { flowRunRoutes } from './modules/flow-runs/routes.ts';
import { scheduleRoutes } from './modules/schedules/routes.ts';
import { checkItemRoutes } from './modules/check-items/routes.ts';
import { workPlanRoutes } from './modules/work-plans/routes.ts';
import { watchWorkPlanMoves } from './modules/work-plans/moves.ts';
import { workPlanLauncher } from './modules/work-plans/run-service.ts';
import { commandMappingRoutes } from './modules/command-mappings/routes.ts';
import { createDispatcher } from './modules/schedules/dispatcher.ts';
import { startPositionService } from './modules/schedules/start-position-service.ts';
import { createRunner } from './modules/flow-runs/runner.ts';
import { flowRunService, type FlowRunService } from './modules/flow-runs/run-service.ts';
import { mapService } from './modules/maps/map-service.ts';
import { outboundFromConfig, type Outbound } from './lib/outbound.ts';
import { meterCheck } from './modules/meter-reading/meter-check.ts';
import { meterReaders } from './modules/meter-reading/readers.ts';
import { realtimeRoutes } from './modules/realtime/routes.ts';
import { brokerHookRoutes } from './modules/broker-hooks/routes.ts';
import { createTeleopService } from './modules/teleop/teleop-service.ts';
import { robotFeatureRoutes } from './modules/robot-features/routes.ts';
import { robotArmRoutes } from './modules/robot-arm/routes.ts';
import { activityService } from './modules/activity/activity-service.ts';
import { recordControl } from './modules/activity/activity-watcher.ts';
import { activityRoutes } from './modules/activity/routes.ts';
import fastifyWebsocket from '@fastify/websocket';
import { createOperatorEvents } from './modules/realtime/operator-events.ts';
import { createExportWorker } from './modules/report-exports/export-worker.ts';
import { reportExportService } from './modules/report-exports/export-service.ts';
import { reportExportRoutes } from './modules/report-exports/routes.ts';
import { reportWriter } from './modules/reports/report-writer.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { createNotificationEngine } from './modules/notifications/notification-engine.ts';
import { startRobotWatcher } from './modules/notifications/robot-watcher.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { thresholdRoutes } from './modules/thresholds/routes.ts';
import { triggerRoutes } from './modules/triggers/routes.ts';
import { createTriggerWorker } from './modules/triggers/trigger-worker.ts';
import { repoRoot } from './lib/paths.ts';
import { createFairServer } from './lib/fair-server.ts';

export interface BuildOptions {
  ctx: Omit<AppContext, 'log' | 'operatorEvents'>;
  /** Whether `/api/health` answers 200; the server flips it once everything has started. */
  isReady?: () => boolean;
  /** `stream` lets a test read the log lines. */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** Outbound HTTP of the flow runner (building systems); default: from the config's allow-list. */
  outbound?: Outbound;
  /** How often rides and passages read the building system's status (default 250 ms). */
  buildingPollMs?: number;
}

/** Builds the app from plugins in order; never listens (server.ts does). Tests call `app.inject`. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts.ctx;
  const logger = opts.logger ?? { level: config.logLevel };
  const app = Fastify({
    // Signed file URLs are logged without their signature.
    logger: logger === false ? false : { ...(logger === true ? {} : logger), serializers: { req: serializeRequest } },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Malformed percent-encoding and the like are client errors, not crashes.
    routerOptions: { maxParamLength: 200 },
    // Under load, the request that has waited longest is answered first (lib/fair-server.ts).
    serverFactory: (handler, options) => createFairServer(handler, options),
  }).withTypeProvider<ZodTypeProvider>();
  // Operator changes reach the sockets of every server instance (through the broker's cluster bus).
  const operatorEvents = createOperatorEvents((id) => void opts.ctx.robotLink.shareOperatorChange(id));
  // First of the listeners, so whoever re-checks a session after a change reads it anew.
  const offSessions = operatorEvents.on(() => opts.ctx.caches.sessions.clear());
  const offOperatorChanged = opts.ctx.robotLink.on('operatorChanged', operatorEvents.heard);
  app.addHook('onClose', async () => {
    offOperatorChanged();
    offSessions();
  });
  const ctx: AppContext = { ...opts.ctx, log: app.log, operatorEvents };

  // Every API route with its access level, for the tests that sweep all routes (roles, tenancy, bad input).
  const apiRoutes: Array<{ method: string; url: string; access: string }> = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith(config.apiBase + '/') || r.url.startsWith(`${config.apiBase}/docs`)) return;
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      apiRoutes.push({ method, url: r.url, access: r.config?.access ?? 'user' });
    }
  });

  const webDist = resolve(config.webDist ?? join(repoRoot, 'apps/web/dist'));
  // The page is served with the API base written into it, so one web build works under any API_BASE.
  const spaHtml = existsSync(join(webDist, 'index.html'))
    ? readFileSync(join(webDist, 'index.html'), 'utf8').replace(
        '<head>',
        `<head><meta name="portal-api-base" content="${config.apiBase}" />`,
      )
    : null;
  app.setValidatorCompiler(validatorCompiler);
  // Answers are written by a serializer compiled once per route and status from the zod schema
  // (lib/serializer.ts); outside production they are also checked against it, as zod's text.
  app.setSerializerCompiler((route) => {
    const zodRoute = route as Parameters<typeof serializerCompiler>[0];
    const schema = route.schema as unknown;
    if (!(schema instanceof $ZodType)) return serializerCompiler(zodRoute);
    const fast = compiledSerializer(schema);
    if (!CHECK_RESPONSES) return fast;
    const checked = serializerCompiler(zodRoute);
    return (data: unknown) => sameAsZod(fast(data), checked(data), `${route.method} ${route.url}`);
  });
  registerErrorHandling(app, { apiBase: config.apiBase, spaHtml });
  registerSecurityHeaders(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Robot Portal API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${config.apiBase}/docs`, uiConfig: { docExpansion: 'list' } });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError('RATE_LIMITED', 'Too many requests; try again in a minute'),
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(fastifyMultipart, { limits: { fileSize: MAP_IMAGE_MAX_BYTES, files: 1, fields: 10, parts: 11 } });

  // Teleoperation sessions: signalling on the WebSocket, the controls lock read by the feature routes.
  // The robot activity log: teleop control changes are written by the server holding the session.
  const activity = activityService(ctx);
  const writeControl = recordControl(activity, app.log);
  let runs: FlowRunService | null = null;
  const teleop = createTeleopService({
    robotLink: ctx.robotLink,
    log: app.log,
    iceServers: config.iceServers,
    onControl: (c) => {
      writeControl(c);
      // Manual driving pauses the robot's running flow (docs/flow-runner.md).
      if (c.event === 'start')
        void runs
          ?.pauseForTeleop(c.robotId)
          .catch((err: unknown) => app.log.error({ err, robotId: c.robotId }, 'flow not paused'));
    },
  });
  app.addHook('onClose', async () => teleop.close());
  // Notifications (docs/notifications.md): events are written to the durable outbox, the worker of
  // any server sends them; the robot watcher turns robot states into events.
  const notifications = createNotificationEngine({
    db: ctx.db,
    clock: ctx.clock,
    log: app.log,
    config,
    ...(opts.outbound ? { outbound: opts.outbound } : {}),
  });
  const robotWatcher = startRobotWatcher({
    db: ctx.db,
    clock: ctx.clock,
    link: ctx.robotLink,
    log: app.log,
    notify: (e) => notifications.notifyEvent(e),
    offlineMinutes: config.notifyOfflineMinutes,
  });
  notifications.beforeEachTick(() => robotWatcher.checkOffline());
  app.decorate('notifications', notifications);
  app.decorate('notificationWatcher', robotWatcher);
  app.addHook('preClose', async () => {
    robotWatcher.stop();
    await robotWatcher.idle();
  });
  app.addHook('onClose', async () => notifications.close());
  // Work plans' movement steps: a move that arrived at its waypoint checks the step (docs/api-work-plans.md).
  const workPlanMoves = watchWorkPlanMoves({ db: ctx.db, clock: ctx.clock, robotLink: ctx.robotLink, log: app.log });
  app.addHook('preClose', async () => {
    workPlanMoves.stop();
    await workPlanMoves.idle();
  });
  // The flow runner: carries out the runs this server owns, takes over those left by stopped servers.
  const maps = mapService(ctx);
  // Reports: one per ended run, written right after the runner closes it (docs/api-reports.md).
  const reports = reportWriter(ctx);
  const runnerOutbound = opts.outbound ?? outboundFromConfig(config);
  // Meter checks of flows' meterCheck steps (docs/meter-reading.md): the item's reader, judged, notified.
  const readerFor = meterReaders({
    db: ctx.db,
    outbound: runnerOutbound,
    secretKey: config.secretKey,
    baseUrl: config.hakaruAiUrl,
  });
  const runner = createRunner({
    db: ctx.db,
    clock: ctx.clock,
    robotLink: ctx.robotLink,
    log: app.log,
    outbound: runnerOutbound,
    activity,
    mapOf: (floorId) => maps.current(floorId),
    reports,
    notify: (e) => notifications.notifyEvent(e),
    meterCheck: (input) => meterCheck({ ctx, readerFor, notify: (e) => notifications.notifyEvent(e) }, input),
    readFile: (key) => ctx.fileStore.read(key),
    workPlans: workPlanLauncher(ctx),
    ...(opts.buildingPollMs ? { buildingPollMs: opts.buildingPollMs } : {}),
  });
  runs = flowRunService(ctx, runner, teleop);
  // Tests reach the runner to stop it as a killed server would (and to run its rounds at once).
  app.decorate('flowRunner', runner);
  app.addHook('onClose', async () => runner.close());
  // Reports of runs closed just before a crash (the writer had not run yet); after the runner stops.
  app.decorate('reportWriter', reports);
  app.addHook('onReady', async () => reports.sweepSoon());
  app.addHook('onClose', async () => reports.close());
  // The schedule dispatcher: starts the runs of due schedule entries, each occurrence once across servers.
  const startPosition = startPositionService(ctx);
  app.addHook('onClose', async () => startPosition.close());
  const dispatcher = createDispatcher({
    db: ctx.db,
    clock: ctx.clock,
    log: app.log,
    robotLink: ctx.robotLink,
    runs,
    graceMinutes: config.scheduleGraceMinutes,
    tickMs: config.scheduleTickMs,
    lookAheadMs: config.scheduleLookAheadMs,
    prepareMs: config.schedulePrepareMs,
    // SQLite: one server per database, so lines held by another instance are a dead incarnation's.
    soleServer: config.database.kind === 'sqlite',
    dialect: ctx.dialect,
    notify: (e) => notifications.notifyEvent(e),
    ...(config.scheduleStartCheck ? { startPosition } : {}),
  });
  app.decorate('scheduleDispatcher', dispatcher);
  // Triggers (docs/api-triggers.md): the trigger worker carries out the firings events make, each once across servers.
  const triggerWorker = createTriggerWorker({ db: ctx.db, clock: ctx.clock, log: app.log, config, runs, robotLink: ctx.robotLink, notify: (e) => notifications.notifyEvent(e) }); // prettier-ignore
  notifications.onTriggerFirings(() => triggerWorker.kick()); // the trigger worker looks at once
  app.decorate('triggerWorker', triggerWorker);
  app.addHook('preClose', async () => triggerWorker.close()); // the trigger worker's round ends first
  app.addHook('preClose', async () => dispatcher.close());
  // Report exports: the worker writes the files of queued exports, each once across servers.
  const exportsDir = join(config.dataDir, 'exports');
  const exportWorker = createExportWorker({
    db: ctx.db,
    clock: ctx.clock,
    log: app.log,
    fileStore: ctx.fileStore,
    dir: exportsDir,
    tickMs: config.exportTickMs,
  });
  app.decorate('reportExports', exportWorker);
  app.addHook('preClose', async () => exportWorker.close());
  const reportExports = reportExportService(ctx, { dir: exportsDir, kick: () => void exportWorker.tick() });
  await app.register(
    async (api) => {
      await api.register(authPlugin, { ctx });
      await api.register(publicRoutes, { ctx, isReady: opts.isReady ?? (() => true) });
      await api.register(authRoutes, { ctx });
      await api.register(myRoutes, { ctx });
      await api.register(adminRoutes, { ctx });
      await api.register(organizationRoutes, { ctx });
      await api.register(operatorRoutes, { ctx });
      await api.register(auditRoutes, { ctx });
      await api.register(termRoutes, { ctx });
      await api.register(buildingRoutes, { ctx });
      await api.register(floorRoutes, { ctx });
      await api.register(fileRoutes, { ctx });
      await api.register(robotRoutes, { ctx, teleop });
      await api.register(mapRoutes, { ctx, teleop });
      await api.register(mapSessionRoutes, { ctx });
      await api.register(poseRoutes, { ctx });
      await api.register(flowRoutes, { ctx });
      await api.register(realtimeRoutes, { ctx, teleop });
      await api.register(robotFeatureRoutes, { ctx, teleop });
      await api.register(robotArmRoutes, { ctx, teleop });
      await api.register(activityRoutes, { ctx, activity });
      await api.register(flowRunRoutes, { runs: runs! });
      await api.register(scheduleRoutes, { ctx });
      await api.register(checkItemRoutes, { ctx });
      await api.register(workPlanRoutes, { ctx, teleop });
      await api.register(commandMappingRoutes, { ctx });
      await api.register(reportExportRoutes, { ctx, exports: reportExports });
      await api.register(reportRoutes, { ctx });
      await api.register(webhookRoutes, { ctx });
      await api.register(thresholdRoutes, { ctx });
      await api.register(triggerRoutes, { ctx });
      await api.register(brokerHookRoutes, { ctx });
    },
    { prefix: config.apiBase },
  );

  if (spaHtml) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // index.html itself is always answered by the history fallback, with the API base in it.
      index: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      cacheControl: false,
      // Hashed assets never change; index.html must always be revalidated.
      setHeaders: (res, path) => {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}
