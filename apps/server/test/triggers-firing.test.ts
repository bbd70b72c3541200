import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { triggerFiringSchema, triggerSchema, type TriggerFiring } from '@portal/contract';
import { demoMapDocument } from '../src/seed.ts';
import type { NotificationEngine } from '../src/modules/notifications/notification-engine.ts';
import { runRepo } from '../src/modules/flow-runs/run-repo.ts';
import { createTriggerWorker, type TriggerWorker } from '../src/modules/triggers/trigger-worker.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/**
 * Trigger firing (docs/api-triggers.md "Firing") on a real database (SQLite, and PostgreSQL in the
 * PostgreSQL run), real simulated robots over MQTT, a real SMTP server and a real HTTP receiver:
 * an emergency stop starts a flow on another robot and notifies security; a threshold breach writes a
 * report entry and calls a web API; two workers carry out each firing once; a disabled trigger does
 * nothing; a flow start cut off by a dead server is not started again.
 */
describe('trigger firing', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let receiver: Server;
  let base: string;
  const hits: Array<{ path: string; body: { id: string; event: string; data: Record<string, unknown> } }> = [];
  let admin: string;
  let sys: string;
  let buildingId: number;
  let orgId: number;
  let stopped: { id: number; sim: SimRobot };
  let helper: { id: number; sim: SimRobot };
  let flowId: number;
  let securityTarget: number;
  let webhookId: number;
  let ruleId: number;
  let otherRuleId: number;
  const extraWorkers: TriggerWorker[] = [];

  const engine = () => (t.app as unknown as { notifications: NotificationEngine }).notifications;
  const worker = () => (t.app as unknown as { triggerWorker: TriggerWorker }).triggerWorker;

  async function createTrigger(over: Record<string, unknown>) {
    const res = await t.call('POST', '/triggers', admin, {
      buildingId,
      name: 'Trigger',
      status: 1,
      eventType: 1,
      conditions: { version: 1, robotStatuses: ['emergencyStop'] },
      targetType: 2,
      target: { version: 1 },
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return triggerSchema.parse(res.json());
  }
  const firingsOf = async (triggerId: number): Promise<TriggerFiring[]> => {
    const filter = encodeURIComponent(JSON.stringify({ where: { triggerId } }));
    const res = await t.call('GET', `/trigger-firings?filter=${filter}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown[]>().map((f) => triggerFiringSchema.parse(f));
  };
  const disableAll = () => t.db.kysely.updateTable('triggers').set({ status: 0 }).execute();

  async function robot(serialNo: string, name: string, x: number, floorIdOut?: (id: number) => void) {
    const r = await registerDemoRobot(t, { serialNo, name, model: 'pro' });
    floorIdOut?.(r.floorId);
    const sim = await startRobot(
      simOptions(r.created, {
        model: 'pro',
        mapId: `floor-${r.floorId}`,
        start: { x, y: 1, theta: 0 },
        battery: 90,
        speedScale: 10,
        visualizationHz: 5,
      }),
    );
    const id = r.created.robot.id;
    await until(() => t.link.details(id)?.online && t.link.details(id)?.state);
    return { id, sim };
  }

  /** A threshold log line of a rule (what a meter check writes before notifying). */
  async function breachLog(rule: number): Promise<number> {
    const row = await t.db.kysely
      .insertInto('threshold_logs')
      .values({
        organization_id: orgId,
        building_id: buildingId,
        robot_id: null,
        rule_id: rule,
        rule_name: 'Boiler pressure',
        check_item_id: null,
        check_item_name: 'Gauge B-1',
        value: 1.4,
        condition: JSON.stringify({ judgment: 'range', target: null, min: 0.2, max: 0.8 }),
        level: 5,
        photo_file_key: null,
        report_id: null,
        report_detail_id: null,
        notified: '[]',
        at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const breach = async (rule: number) =>
    engine().notifyEvent({
      kind: 'thresholdBreach',
      organizationId: orgId,
      buildingId,
      level: 5,
      message: 'Boiler pressure: Gauge B-1 1.4',
      details: { ruleName: 'Boiler pressure', checkItemName: 'Gauge B-1', value: 1.4 },
      groupKey: `thresholdBreach:rule:${rule}`,
      dedupeKey: `thresholdBreach:eval:${await breachLog(rule)}`,
    });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    receiver = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        hits.push({ path: req.url ?? '', body: JSON.parse(body) as (typeof hits)[number]['body'] });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp({
      SMTP_URL: smtp.url,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      NOTIFY_TICK_MS: '0',
      NOTIFY_RETRY_BASE_MS: '10000',
      SCHEDULE_TICK_MS: '0',
      EXPORT_TICK_MS: '0',
    });
    admin = (await t.as('orgadmin@demo.example')).authorization;
    sys = (await t.as('sysadmin@demo.example')).authorization;
    let floorId = 0;
    stopped = await robot('TRG-STOP-1', 'Stopped robot', 3, (id) => (floorId = id));
    const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
      baseRevision: 0,
      document: demoMapDocument(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    helper = await robot('TRG-HELP-1', 'Helper robot', 4);
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select(['id', 'organization_id'])
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    buildingId = b.id;
    orgId = b.organization_id;
    const flow = await t.call('POST', '/flows', admin, {
      name: 'Return to charger',
      description: '',
      buildingId,
      floorId,
      flowGroupId: null,
      enabled: true,
      definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    flowId = flow.json<{ id: number }>().id;
    const now = new Date().toISOString();
    securityTarget = (
      await t.db.kysely
        .insertInto('notification_targets')
        .values({
          organization_id: orgId,
          building_id: buildingId,
          type: 0,
          level: 9,
          room: 'Security',
          address: 'security@demo.example',
          address_sealed: 0,
          bot_login_id: '',
          bot_password: null,
          space_id: '',
          language: 'en',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const hook = await t.call('POST', '/webhooks', sys, {
      name: 'Facility system',
      type: 0,
      url: `${base}/facility`,
      authType: 'none',
      authUsername: '',
      customHeaderName: '',
      status: 1,
      // Above every event of these tests: only the trigger's own calls reach it.
      level: 9,
    });
    expect(hook.statusCode, hook.body).toBe(201);
    webhookId = hook.json<{ webhook: { id: number } }>().webhook.id;
    const rule = async (name: string) => {
      const res = await t.call('POST', '/threshold-rules', admin, {
        name,
        description: '',
        level: 5,
        status: 1,
        conditions: [{ judgment: 'range', target: null, min: 0.2, max: 0.8 }],
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    ruleId = await rule('Boiler pressure');
    otherRuleId = await rule('Water level');
  });

  afterAll(async () => {
    for (const w of extraWorkers) await w.close();
    await stopped?.sim.stop().catch(() => undefined);
    await helper?.sim.stop().catch(() => undefined);
    await t?.close();
    await smtp?.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('an emergency stop starts the return flow on another robot and notifies security; a disabled trigger does nothing', async () => {
    await disableAll();
    const flowTrigger = await createTrigger({
      name: 'E-stop: return another robot',
      conditions: { version: 1, robotStatuses: ['emergencyStop'], robotId: stopped.id },
      targetType: 0,
      target: { version: 1, flowId, robotChoice: 'otherIdle' },
    });
    const notifyTrigger = await createTrigger({
      name: 'E-stop: notify security',
      targetType: 1,
      target: {
        version: 1,
        targetIds: [securityTarget],
        level: 9,
        message: 'Robot stopped: security, please go and look',
      },
    });
    const disabled = await createTrigger({ name: 'Disabled', status: 0, targetType: 2, target: { version: 1 } });
    const otherStatus = await createTrigger({
      name: 'Low battery only',
      conditions: { version: 1, robotStatuses: ['lowBattery'] },
    });

    stopped.sim.injectFault('emergencyStop');
    const [fired] = await until(async () => {
      const f = await firingsOf(flowTrigger.id);
      return f.length > 0 ? f : undefined;
    });
    expect(fired).toMatchObject({ status: 'pending', eventKind: 'emergencyStop', robotId: stopped.id, targetType: 0 });
    await worker().tick();

    const [flowFiring] = await firingsOf(flowTrigger.id);
    expect(flowFiring, JSON.stringify(flowFiring)).toMatchObject({
      status: 'done',
      runRobotId: helper.id,
      error: null,
    });
    const run = await runRepo(t.db.kysely).byId(flowFiring!.flowRunId!);
    expect(run).toMatchObject({ robot_id: helper.id, flow_id: flowId, started_by: null });

    const [notifyFiring] = await firingsOf(notifyTrigger.id);
    expect(notifyFiring).toMatchObject({ status: 'done' });
    expect(notifyFiring!.notificationEventId).not.toBeNull();
    await engine().tick();
    const mail = await until(() =>
      smtp.mails.find((m) => m.text.includes('Robot stopped: security, please go and look')),
    );
    expect(mail.to).toEqual(['security@demo.example']);
    // One firing each, however often the worker looks.
    await worker().tick();
    expect(await firingsOf(flowTrigger.id)).toHaveLength(1);
    expect(smtp.mails.filter((m) => m.text.includes('please go and look'))).toHaveLength(1);
    // The disabled trigger and the trigger of another status did not fire.
    expect(await firingsOf(disabled.id)).toEqual([]);
    expect(await firingsOf(otherStatus.id)).toEqual([]);

    stopped.sim.clearFault('emergencyStop');
    await stopped.sim.waitFor((s) => s.safetyState.eStop === 'NONE');
    await until(async () => {
      const s = (await runRepo(t.db.kysely).byId(run!.id))?.status;
      return s !== 'running' && s !== 'paused' && s !== 'pending';
    }, 30_000);
  });

  it('a threshold breach writes a report entry and calls the web API; a trigger of another rule does not fire', async () => {
    await disableAll();
    const reportTrigger = await createTrigger({
      name: 'Breach: report',
      eventType: 2,
      conditions: { version: 1, ruleId },
      targetType: 2,
      target: { version: 1 },
    });
    const apiTrigger = await createTrigger({
      name: 'Breach: facility system',
      eventType: 2,
      conditions: { version: 1, minLevel: 5 },
      targetType: 3,
      target: { version: 1, webhookId },
    });
    const otherRule = await createTrigger({
      name: 'Other rule',
      eventType: 2,
      conditions: { version: 1, ruleId: otherRuleId },
    });
    const r = await breach(ruleId);
    expect(r?.firings).toHaveLength(2);
    await worker().tick();

    const [reportFiring] = await firingsOf(reportTrigger.id);
    expect(reportFiring).toMatchObject({ status: 'done', eventKind: 'thresholdBreach' });
    const report = await t.call('GET', `/reports/${reportFiring!.reportId}`, admin);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ caller: 'trigger', buildingId, flowName: 'Breach: report', detailCount: 1 });

    const [apiFiring] = await firingsOf(apiTrigger.id);
    expect(apiFiring).toMatchObject({ status: 'done' });
    expect(apiFiring!.webhookDeliveryId).not.toBeNull();
    const calls = hits.filter((h) => h.body.id === `trigger-firing-${apiFiring!.id}`);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      event: 'trigger.thresholdBreach',
      data: { triggerName: 'Breach: facility system', buildingId },
    });
    expect(await firingsOf(otherRule.id)).toEqual([]);
  });

  it('two workers carry out each firing once', async () => {
    await disableAll();
    const apiTrigger = await createTrigger({
      name: 'Breach: two workers',
      eventType: 2,
      conditions: { version: 1 },
      targetType: 3,
      target: { version: 1, webhookId },
    });
    for (let i = 0; i < 6; i++) await breach(ruleId);
    const app = t.app as unknown as { triggerWorker: TriggerWorker; notifications: NotificationEngine };
    const second = createTriggerWorker({
      db: t.db.kysely,
      clock: () => new Date(),
      log: { error: () => undefined, warn: () => undefined },
      config: t.config,
      // Its firings here call a web API only.
      runs: { start: () => Promise.reject(new Error('not used')) },
      robotLink: t.link,
      notify: (e) => app.notifications.notifyEvent(e),
    });
    extraWorkers.push(second);
    await Promise.all([app.triggerWorker.tick(), second.tick(), app.triggerWorker.tick()]);
    const firings = await firingsOf(apiTrigger.id);
    expect(firings).toHaveLength(6);
    expect(firings.every((f) => f.status === 'done' && f.attempts === 1)).toBe(true);
    for (const f of firings) expect(hits.filter((h) => h.body.id === `trigger-firing-${f.id}`)).toHaveLength(1);
  });

  it('a flow start cut off by a dead server is not started again; an expired lease is taken over', async () => {
    await disableAll();
    const flowTrigger = await createTrigger({
      name: 'Breach: start a flow',
      eventType: 2,
      conditions: { version: 1 },
      targetType: 0,
      target: { version: 1, flowId, robotChoice: 'robot', robotId: helper.id },
    });
    const reportTrigger = await createTrigger({
      name: 'Breach: report again',
      eventType: 2,
      conditions: { version: 1 },
    });
    await breach(ruleId);
    const past = new Date(Date.now() - 1000).toISOString();
    // A server claimed both and died: one mid-start of the flow, one before doing anything.
    await t.db.kysely
      .updateTable('trigger_firings')
      .set({ lease_owner: 'dead-server', lease_until: past, attempts: 1, stage: 'starting' })
      .where('trigger_id', '=', flowTrigger.id)
      .execute();
    await t.db.kysely
      .updateTable('trigger_firings')
      .set({ lease_owner: 'dead-server', lease_until: past, attempts: 1 })
      .where('trigger_id', '=', reportTrigger.id)
      .execute();
    const runsBefore = await t.db.kysely.selectFrom('flow_runs').select('id').execute();
    await worker().tick();
    const [flowFiring] = await firingsOf(flowTrigger.id);
    expect(flowFiring).toMatchObject({ status: 'failed', flowRunId: null });
    expect(flowFiring!.error).toMatch(/not started again/);
    expect(await t.db.kysely.selectFrom('flow_runs').select('id').execute()).toHaveLength(runsBefore.length);
    const [reportFiring] = await firingsOf(reportTrigger.id);
    expect(reportFiring).toMatchObject({ status: 'done', attempts: 2 });
    expect(reportFiring!.reportId).not.toBeNull();
  });
});
