import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { startRobot, type SimRobot } from '@portal/robot-sim';
import { toZoned } from '@portal/contract';
import type { ScheduleDispatcher } from '../src/modules/schedules/dispatcher.ts';
import { createOutbound } from '../src/lib/outbound.ts';
import { demoMapDocument } from '../src/seed.ts';
import { secretBox } from '../src/lib/crypto.ts';
import {
  createNotificationEngine,
  notifyEvent,
  type NotificationEngine,
} from '../src/modules/notifications/notification-engine.ts';
import { startRobotWatcher, type RobotWatcher } from '../src/modules/notifications/robot-watcher.ts';
import { createTestApp, registerDemoRobot, simOptions, until, type TestApp } from './helpers.ts';

/** A mail as the SMTP server received it: envelope recipients, decoded subject and text. */
interface Mail {
  to: string[];
  subject: string;
  text: string;
}

function decodeWords(v: string): string {
  return v.replace(/\s*=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function parseMail(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const enc = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    enc === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : enc === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { to, subject: decodeWords(header('Subject')), text };
}

/** A real SMTP server (the smtp-server package) on 127.0.0.1 keeping what it receives. */
async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('latin1'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real HTTP receiver (a Slack incoming webhook stand-in): answers 500 `failing` times, then 200. */
async function startReceiver() {
  const received: Array<{ path: string; body: { text?: string } }> = [];
  const state = { failing: 0, hits: 0 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      state.hits += 1;
      if (state.failing > 0) {
        state.failing -= 1;
        res.statusCode = 500;
        res.end('no');
        return;
      }
      received.push({ path: req.url ?? '', body: JSON.parse(body) as { text?: string } });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const silent = new Proxy({} as Parameters<typeof createNotificationEngine>[0]['log'], {
  get: () => () => undefined,
});

/**
 * The notification engine (docs/notifications.md) on a real database (SQLite, and PostgreSQL in the
 * PostgreSQL run), a real SMTP server, a real HTTP receiver and the real simulator over MQTT:
 * routing, the robot events and low-battery edge triggering, the durable outbox (backoff, restart,
 * two claimers), and burst grouping. The app's clock is moved instead of sleeping.
 */
describe('notifications', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let http: Awaited<ReturnType<typeof startReceiver>>;
  let orgId: number;
  let buildingId: number;
  let otherBuildingId: number;
  let otherOrgId: number;
  const outbound = createOutbound({ allow: ['127.0.0.1'], protocols: ['http:', 'https:'], timeoutMs: 2_000 });
  const engine = () => (t.app as unknown as { notifications: NotificationEngine }).notifications;
  const watcher = () => (t.app as unknown as { notificationWatcher: RobotWatcher }).notificationWatcher;
  const clock = () => new Date(Date.now() + offsetMs);
  let offsetMs = 0;
  const advanceSeconds = (s: number) => {
    offsetMs += s * 1000;
    t.advance(s / 60);
  };

  async function addTarget(v: {
    type: number;
    level: number;
    buildingId: number | null;
    address: string;
    org?: number;
    /** The language of its messages (default `en`, which most assertions here read). */
    language?: 'ja' | 'en';
  }) {
    const box = secretBox(t.config.secretKey);
    const sealed = v.type === 1 || v.type === 6;
    const now = new Date().toISOString();
    const row = await t.db.kysely
      .insertInto('notification_targets')
      .values({
        organization_id: v.org ?? orgId,
        building_id: v.buildingId,
        type: v.type,
        level: v.level,
        room: '',
        address: sealed ? box.seal(v.address) : v.address,
        address_sealed: sealed ? 1 : 0,
        bot_login_id: '',
        bot_password: null,
        space_id: '',
        language: v.language ?? 'en',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const events = (kind?: string) => {
    let q = t.db.kysely.selectFrom('notification_events').selectAll();
    if (kind) q = q.where('kind', '=', kind);
    return q.orderBy('id').execute();
  };
  const deliveries = () => t.db.kysely.selectFrom('notification_deliveries').selectAll().orderBy('id').execute();
  const notify = (input: Parameters<typeof notifyEvent>[1]) =>
    notifyEvent({ db: t.db.kysely, clock: () => clock(), config: t.config }, input);

  beforeAll(async () => {
    smtp = await startSmtp();
    http = await startReceiver();
    t = await createTestApp(
      {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'https://portal.example.com',
        NOTIFY_TICK_MS: '0',
        NOTIFY_GROUP_WINDOW_MS: '10000',
        NOTIFY_RETRY_BASE_MS: '10000',
        NOTIFY_MAX_ATTEMPTS: '3',
        NOTIFY_OFFLINE_MINUTES: '5',
        SCHEDULE_TICK_MS: '0',
        EXPORT_TICK_MS: '0',
      },
      { outbound },
    );
    const b = await t.db.kysely
      .selectFrom('buildings')
      .select(['id', 'organization_id'])
      .where('name', '=', 'Demo Tower')
      .executeTakeFirstOrThrow();
    buildingId = b.id;
    orgId = b.organization_id;
    const now = new Date().toISOString();
    otherBuildingId = (
      await t.db.kysely
        .insertInto('buildings')
        .values({
          organization_id: orgId,
          name: 'Harbor Annex',
          prefecture: '13',
          city: null,
          address: null,
          postal_code: null,
          latitude: null,
          longitude: null,
          time_zone: 'America/New_York',
          status: 1,
          ip_restriction_enabled: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    otherOrgId = (
      await t.db.kysely
        .insertInto('organizations')
        .values({
          name: 'Notify Other Org',
          type: 0,
          level: 0,
          prefecture: null,
          city: null,
          address: null,
          postal_code: null,
          status: 1,
          lab_option: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await http?.close();
  });

  beforeEach(async () => {
    await t.db.kysely.deleteFrom('notification_delivery_events').execute();
    await t.db.kysely.deleteFrom('notification_deliveries').execute();
    await t.db.kysely.deleteFrom('notification_events').execute();
    await t.db.kysely.deleteFrom('notification_targets').execute();
    smtp.mails.length = 0;
    http.received.length = 0;
    http.state.failing = 0;
    http.state.hits = 0;
  });

  it('routes to the building and organization-wide targets whose level the event reaches; SMS and phone are skipped', async () => {
    const a = await addTarget({ type: 0, level: 0, buildingId, address: 'a@demo.example' });
    const b = await addTarget({ type: 0, level: 9, buildingId, address: 'b@demo.example' });
    const c = await addTarget({ type: 0, level: 5, buildingId: null, address: 'c@demo.example' });
    await addTarget({ type: 0, level: 0, buildingId: otherBuildingId, address: 'annex@demo.example' });
    await addTarget({ type: 2, level: 0, buildingId, address: '+81300000000' });
    await addTarget({ type: 3, level: 0, buildingId: null, address: '+81300000001' });
    await addTarget({ type: 0, level: 0, buildingId: null, address: 'other@other.example', org: otherOrgId });
    const s = await addTarget({ type: 1, level: 5, buildingId, address: http.url('/hooks/slack') });

    const warning = await notify({ kind: 'thresholdBreach', organizationId: orgId, buildingId, level: 5 });
    expect(warning?.targets).toEqual([a, c, s]);
    const emergency = await notify({ kind: 'thresholdBreach', organizationId: orgId, buildingId, level: 9 });
    expect(emergency?.targets).toEqual([a, b, c, s]);
    const info = await notify({ kind: 'taskEvent', organizationId: orgId, buildingId, level: 0 });
    expect(info?.targets).toEqual([a]);
    // Without a building only the organization-wide targets are reached.
    const orgWide = await notify({ kind: 'thresholdBreach', organizationId: orgId, buildingId: null, level: 9 });
    expect(orgWide?.targets).toEqual([c]);
    // A flow's notification step names its targets: only those (still routed by building and level).
    const named = await notify({ kind: 'taskEvent', organizationId: orgId, buildingId, level: 9, targetIds: [b, c] });
    expect(named?.targets).toEqual([b, c]);
    // A dedupe key already recorded: not recorded again.
    expect(await notify({ kind: 'flowRunFailed', organizationId: orgId, buildingId, dedupeKey: 'x:1' })).not.toBeNull();
    expect(await notify({ kind: 'flowRunFailed', organizationId: orgId, buildingId, dedupeKey: 'x:1' })).toBeNull();
  });

  it('really delivers an email to the SMTP server: building time zone, building, floor, robot name and serial, portal link', async () => {
    const annexTarget = await addTarget({
      type: 0,
      level: 9,
      buildingId: otherBuildingId,
      address: 'annex@demo.example',
    });
    const floor = await t.db.kysely
      .insertInto('floors')
      .values({
        organization_id: orgId,
        building_id: otherBuildingId,
        name: 'Annex 3F',
        type: 'office',
        index: 3,
        img: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const at = new Date('2026-07-01T12:34:56Z');
    const r = await notify({
      kind: 'thresholdBreach',
      organizationId: orgId,
      buildingId: otherBuildingId,
      floorId: floor.id,
      level: 9,
      message: 'Pressure gauge out of range',
      details: { ruleName: 'Boiler pressure', checkItemName: 'Gauge B-2', value: 1.9 },
      at,
    });
    expect(r?.targets).toEqual([annexTarget]);
    await engine().tick();
    await until(() => smtp.mails.length === 1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(['annex@demo.example']);
    // An English target: the message in English only.
    expect(mail.subject).toBe('[Robot Portal] [Emergency] Threshold breached');
    // 12:34:56 UTC is 08:34:56 in New York (summer time).
    expect(mail.text).toContain('2026-07-01 08:34:56 (America/New_York) / Harbor Annex Annex 3F');
    expect(mail.text).not.toContain('2026/07/01');
    expect(mail.text).not.toContain('しきい値超過');
    expect(mail.text).toContain('Boiler pressure / Gauge B-2 = 1.9 — Pressure gauge out of range');
    expect(mail.text).toContain('https://portal.example.com/threshold/log/1');
    const [d] = await deliveries();
    expect(d).toMatchObject({ status: 'sent', attempts: 1, target_id: annexTarget });
    const log = await t.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('notification_delivery_id', '=', d!.id)
      .execute();
    expect(log.map((l) => [l.channel, l.recipient, l.status, l.purpose])).toEqual([
      ['email', 'annex@demo.example', 'sent', 'notification'],
    ]);
  });

  it("writes each message in its target's language only (Japanese or English)", async () => {
    await addTarget({ type: 0, level: 0, buildingId, address: 'ja@demo.example', language: 'ja' });
    await addTarget({ type: 0, level: 0, buildingId: null, address: 'en@demo.example', language: 'en' });
    await notify({
      kind: 'scheduleFailed',
      organizationId: orgId,
      buildingId,
      details: { title: 'Night round', reason: 'MISSED' },
      at: new Date('2026-07-01T12:34:56Z'),
    });
    await engine().tick();
    await until(() => smtp.mails.length === 2);
    const ja = smtp.mails.find((m) => m.to.includes('ja@demo.example'))!;
    const en = smtp.mails.find((m) => m.to.includes('en@demo.example'))!;
    expect(ja.subject).toBe('【ロボットポータル】[警告] スケジュール実行失敗');
    expect(ja.text).toContain('2026/07/01 21:34:56 (Asia/Tokyo) / Demo Tower');
    expect(ja.text).toContain('スケジュール「Night round」の実行が失敗しました（MISSED）');
    expect(ja.text).toContain('ポータルで確認: https://portal.example.com/robot/control');
    expect(ja.text).not.toContain('Robot Portal');
    expect(ja.text).not.toContain('failed');
    expect(en.subject).toBe('[Robot Portal] [Warning] Scheduled run failed');
    expect(en.text).toContain('2026-07-01 21:34:56 (Asia/Tokyo) / Demo Tower');
    expect(en.text).toContain('the scheduled run "Night round" failed (MISSED)');
    expect(en.text).toContain('Open in the portal: https://portal.example.com/robot/control');
    expect(en.text).not.toContain('スケジュール');
  });

  it('retries a failing HTTP target with exponential backoff, each attempt in the delivery log, then gives up', async () => {
    const target = await addTarget({ type: 1, level: 0, buildingId, address: http.url('/hooks/retry') });
    http.state.failing = 2;
    await notify({ kind: 'emergencyStop', organizationId: orgId, buildingId, message: null });
    await engine().tick();
    let [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null });
    const first = Date.parse(d!.next_attempt_at);
    // Not due yet: nothing is tried.
    await engine().tick();
    expect(http.state.hits).toBe(1);
    advanceSeconds(10);
    await engine().tick();
    [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 2 });
    // The second wait is twice the first.
    expect(Date.parse(d!.next_attempt_at) - first).toBeGreaterThanOrEqual(20_000 - 50);
    advanceSeconds(15);
    await engine().tick();
    expect(http.state.hits).toBe(2);
    advanceSeconds(6);
    await engine().tick();
    [d] = await deliveries();
    expect(d).toMatchObject({ status: 'sent', attempts: 3, target_id: target });
    expect(http.received).toHaveLength(1);
    expect(http.received[0]!.body.text).toContain('Emergency stop');
    const attempts = await t.db.kysely
      .selectFrom('outbox')
      .select(['status', 'channel'])
      .where('notification_delivery_id', '=', d!.id)
      .orderBy('id')
      .execute();
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'sent']);

    // A target that never answers: failed after NOTIFY_MAX_ATTEMPTS (3).
    http.state.failing = 100;
    await notify({ kind: 'robotOffline', organizationId: orgId, buildingId });
    for (let i = 0; i < 3; i += 1) {
      await engine().tick();
      advanceSeconds(60);
    }
    const last = (await deliveries()).at(-1)!;
    expect(last).toMatchObject({ status: 'failed', attempts: 3 });
    expect(last.last_error).toBeTruthy();
  });

  it('takes over a delivery whose server died (lease expired) and sends what was left unsent across a restart', async () => {
    await addTarget({ type: 1, level: 0, buildingId, address: http.url('/hooks/restart') });
    // Recorded without any worker running (the server stops right after): the outbox keeps it.
    await notify({ kind: 'emergencyStop', organizationId: orgId, buildingId });
    const [d] = await deliveries();
    // Another server claimed it and died: its lease still runs.
    await t.db.kysely
      .updateTable('notification_deliveries')
      .set({ lease_owner: 'dead-server', lease_until: new Date(clock().getTime() + 60_000).toISOString() })
      .where('id', '=', d!.id)
      .execute();
    await engine().tick();
    expect(http.state.hits).toBe(0);
    advanceSeconds(61);
    await engine().tick();
    expect(http.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'sent', attempts: 1 });

    // An event recorded, then the server restarts: a new engine (another process) sends it.
    await notify({ kind: 'hardwareError', organizationId: orgId, buildingId, details: { errorType: 'motorFault' } });
    const restarted = createNotificationEngine({
      db: t.db.kysely,
      clock,
      log: silent,
      config: t.config,
      outbound,
    });
    try {
      await restarted.tick();
    } finally {
      await restarted.close();
    }
    expect(http.received).toHaveLength(2);
    expect(http.received[1]!.body.text).toContain('motorFault');
  });

  it('keeps settled deliveries and their events 30 days; pending ones stay', async () => {
    await addTarget({ type: 1, level: 0, buildingId, address: http.url('/hooks/retention') });
    await notify({ kind: 'robotOffline', organizationId: orgId, buildingId, groupKey: 'old-sent' });
    await engine().tick();
    http.state.failing = 100;
    await notify({ kind: 'robotOffline', organizationId: orgId, buildingId, groupKey: 'old-pending' });
    await engine().tick();
    const old = new Date(clock().getTime() - 31 * 86_400_000).toISOString();
    await t.db.kysely.updateTable('notification_deliveries').set({ created_at: old }).execute();
    await t.db.kysely.updateTable('notification_events').set({ created_at: old }).execute();
    expect(await engine().prune()).toBe(2);
    const left = await deliveries();
    expect(left.map((d) => [d.group_key, d.status])).toEqual([['old-pending', 'pending']]);
    expect((await events()).map((e) => e.group_key)).toEqual(['old-pending']);
  });

  it('sends each delivery once with two servers claiming from one database', async () => {
    await addTarget({ type: 1, level: 0, buildingId, address: http.url('/hooks/two') });
    // Twenty causes (each its own delivery).
    for (let i = 0; i < 20; i += 1)
      await notify({ kind: 'thresholdBreach', organizationId: orgId, buildingId, level: 5, groupKey: `rule:${i}` });
    const other = createNotificationEngine({
      db: t.db.kysely,
      clock,
      log: silent,
      config: t.config,
      outbound,
      batch: 3,
    });
    try {
      await Promise.all([engine().tick(), other.tick(), engine().tick(), other.tick()]);
    } finally {
      await other.close();
    }
    expect(http.received).toHaveLength(20);
    expect(http.state.hits).toBe(20);
    const ds = await deliveries();
    expect(ds.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
  });

  it('groups a burst (one cause, many robots) into one message per recipient, and the next ones into one per window', async () => {
    await addTarget({ type: 0, level: 5, buildingId, address: 'security@demo.example' });
    const floor = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', buildingId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const robotIds: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const row = await t.db.kysely
        .insertInto('robots')
        .values({
          organization_id: orgId,
          building_id: buildingId,
          floor_id: floor.id,
          group_id: null,
          serial_no: `BURST-${String(i).padStart(3, '0')}`,
          name: `Burst ${i}`,
          model: 'ex',
          version: '',
          hardware_revision: '',
          status: 1,
          long_term_rec_auto_start: 0,
          video_mode: 'medium',
          notes: '',
          manufacturer: 'Sim',
          mqtt_username: `burst-${i}-${now}`,
          mqtt_password_hash: 'x',
          last_communication_at: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      robotIds.push(row.id);
    }
    for (const robotId of robotIds) await notify({ kind: 'emergencyStop', robotId });
    await engine().tick();
    await until(() => smtp.mails.length === 1);
    const mail = smtp.mails[0]!;
    expect(mail.subject).toContain('Emergency stop (50 robots)');
    for (let i = 0; i < 50; i += 1) expect(mail.text).toContain(`(serial BURST-${String(i).padStart(3, '0')})`);
    expect(await deliveries()).toHaveLength(1);

    // More of the same cause right after: held for one window after the first, then one message.
    await notify({ kind: 'emergencyStop', robotId: robotIds[0]! });
    await notify({ kind: 'emergencyStop', robotId: robotIds[1]! });
    await engine().tick();
    expect(smtp.mails).toHaveLength(1);
    advanceSeconds(10);
    await engine().tick();
    await until(() => smtp.mails.length === 2);
    expect(smtp.mails[1]!.subject).toContain('(2 robots)');
    expect(await deliveries()).toHaveLength(2);
    await t.db.kysely.deleteFrom('robots').where('id', 'in', robotIds).execute();
  });

  it('sends a grouped delivery when its window ends, without waiting for the next tick', async () => {
    await addTarget({ type: 1, level: 0, buildingId, address: http.url('/hooks/window') });
    // A worker whose tick is an hour away: only the wake-up at the window's end can send the second.
    const worker = createNotificationEngine({
      db: t.db.kysely,
      clock,
      log: silent,
      config: { ...t.config, notifyTickMs: 3_600_000, notifyGroupWindowMs: 300 },
      outbound,
    });
    try {
      const cause = {
        kind: 'thresholdBreach',
        organizationId: orgId,
        buildingId,
        level: 5,
        groupKey: 'rule:window',
      } as const;
      await worker.notifyEvent(cause);
      await until(() => http.received.length === 1);
      await worker.notifyEvent(cause);
      // Held for the window after the first message, then sent by the wake-up.
      expect((await deliveries()).filter((d) => d.status === 'pending')).toHaveLength(1);
      await until(() => http.received.length === 2);
      await until(async () => (await deliveries()).every((d) => d.status === 'sent'));
      expect(await deliveries()).toHaveLength(2);
    } finally {
      await worker.close();
    }
  });

  describe('robot events (simulated robot over MQTT)', () => {
    let sim: SimRobot;
    let robotId: number;
    let floorId: number;

    beforeAll(async () => {
      const r = await registerDemoRobot(t, { serialNo: 'NOTIFY-001', name: 'Notify robot', model: 'ex' });
      robotId = r.created.robot.id;
      floorId = r.floorId;
      sim = await startRobot(
        simOptions(r.created, {
          model: 'ex',
          mapId: `floor-${r.floorId}`,
          start: { x: 3, y: 3, theta: 0 },
          battery: 80,
        }),
      );
      await until(() => t.link.live({ id: robotId, status: 1 }).online);
    });
    afterAll(async () => {
      await sim?.stop();
    });

    const settle = async (check: (s: { batteryState: { batteryCharge: number } }) => boolean) => {
      await sim.waitFor(check);
      await until(async () => {
        await watcher().idle();
        return true;
      });
      // The live event of that state has been heard and handled.
      await until(() => {
        const b = t.link.details(robotId)?.state?.batteryState.batteryCharge;
        return b !== undefined && check({ batteryState: { batteryCharge: b } });
      });
      await watcher().idle();
    };
    const mark = async (m: string) =>
      (
        await t.db.kysely
          .selectFrom('notification_marks')
          .select('value')
          .where('robot_id', '=', robotId)
          .where('mark', '=', m)
          .executeTakeFirst()
      )?.value;

    it('low battery: one emergency notification to every recipient of the building when it drops online, re-armed above 20 %', async () => {
      const everyone = await addTarget({ type: 0, level: 9, buildingId, address: 'ops@demo.example' });
      sim.setBattery(50);
      await settle((s) => s.batteryState.batteryCharge >= 50);
      sim.setBattery(15);
      await settle((s) => s.batteryState.batteryCharge <= 15);
      await until(async () => (await events('lowBattery')).length === 1);
      // It stays low: nothing more.
      sim.setBattery(10);
      await settle((s) => s.batteryState.batteryCharge <= 10);
      expect(await events('lowBattery')).toHaveLength(1);
      const [e] = await events('lowBattery');
      expect(e).toMatchObject({ level: 9, robot_id: robotId, building_id: buildingId });
      await engine().tick();
      await until(() => smtp.mails.some((m) => m.to.includes('ops@demo.example')));
      const mail = smtp.mails.find((m) => m.to.includes('ops@demo.example'))!;
      expect(mail.subject).toContain('[Emergency] Low battery');
      expect(mail.text).toContain('Notify robot (serial NOTIFY-001)');
      expect(mail.text).toContain('Demo Tower 1F');
      expect(mail.text).toContain(`https://portal.example.com/robot/${robotId}`);
      expect((await deliveries()).map((d) => d.target_id)).toEqual([everyone]);
      // Back above 20 %, then below again: another one.
      sim.setBattery(30);
      await settle((s) => s.batteryState.batteryCharge >= 30);
      expect(await mark('battery')).toBe('ok');
      sim.setBattery(12);
      await settle((s) => s.batteryState.batteryCharge <= 12);
      await until(async () => (await events('lowBattery')).length === 2);
      sim.setBattery(60);
      await settle((s) => s.batteryState.batteryCharge >= 60);
    });

    it('low battery: a drop while offline is never reported; a restart does not notify again', async () => {
      expect(await mark('battery')).toBe('ok');
      await sim.disconnect({ graceful: false });
      await until(() => !t.link.live({ id: robotId, status: 1 }).online);
      await watcher().idle();
      sim.setBattery(8);
      await sim.reconnect();
      await until(() => t.link.live({ id: robotId, status: 1 }).online);
      await settle((s) => s.batteryState.batteryCharge <= 8);
      await until(async () => (await mark('battery')) === 'low');
      expect(await events('lowBattery')).toHaveLength(0);
      // Back above and down again while online: notified.
      sim.setBattery(40);
      await settle((s) => s.batteryState.batteryCharge >= 40);
      sim.setBattery(14);
      await settle((s) => s.batteryState.batteryCharge <= 14);
      await until(async () => (await events('lowBattery')).length === 1);
      // A restarted server (another watcher, its memory empty) hearing the same low states: nothing more.
      const again = startRobotWatcher({
        db: t.db.kysely,
        clock,
        link: t.link,
        log: silent,
        notify: (e) => notifyEvent({ db: t.db.kysely, clock, config: t.config }, e),
        offlineMinutes: 5,
      });
      try {
        sim.setBattery(13);
        await settle((s) => s.batteryState.batteryCharge <= 13);
        await again.idle();
      } finally {
        again.stop();
      }
      expect(await events('lowBattery')).toHaveLength(1);
      sim.setBattery(70);
      await settle((s) => s.batteryState.batteryCharge >= 70);
    });

    it('emergency stop and fatal hardware errors: once each while they last', async () => {
      await addTarget({ type: 0, level: 9, buildingId: null, address: 'hq@demo.example' });
      sim.injectFault('emergencyStop');
      await until(async () => (await events('emergencyStop')).length === 1);
      await sim.waitFor((s) => s.safetyState.eStop !== 'NONE');
      await watcher().idle();
      sim.clearFault('emergencyStop');
      await sim.waitFor((s) => s.safetyState.eStop === 'NONE');
      await until(async () => (await mark('emergencyStop')) === 'released');
      // Pressed again, heard by two more servers' watchers at once as well: one more event.
      const others = [1, 2].map(() =>
        startRobotWatcher({
          db: t.db.kysely,
          clock,
          link: t.link,
          log: silent,
          notify: (e) => notifyEvent({ db: t.db.kysely, clock, config: t.config }, e),
          offlineMinutes: 5,
        }),
      );
      try {
        sim.injectFault('emergencyStop');
        await until(async () => (await events('emergencyStop')).length === 2);
        await sim.waitFor((s) => s.safetyState.eStop !== 'NONE');
        for (const w of [watcher(), ...others]) await w.idle();
        sim.clearFault('emergencyStop');
        await until(async () => (await mark('emergencyStop')) === 'released');
        for (const w of [watcher(), ...others]) await w.idle();
      } finally {
        for (const w of others) w.stop();
      }
      expect(await events('emergencyStop')).toHaveLength(2);

      sim.injectFault('hardwareError');
      await until(async () => (await events('hardwareError')).length === 1);
      // A warning-level error is no hardware-error notification.
      sim.injectFault('motorTemperatureHigh');
      await sim.waitFor((s) => s.errors.some((e) => e.errorType === 'motorTemperatureHigh'));
      await watcher().idle();
      expect((await events('hardwareError')).map((e) => JSON.parse(e.params).details.errorType)).toEqual([
        'hardwareError',
      ]);
      sim.clearFault('hardwareError');
      sim.clearFault('motorTemperatureHigh');
      await until(async () => (await mark('fatal:hardwareError')) === 'clear');
      await engine().tick();
      await until(() => smtp.mails.filter((m) => m.to.includes('hq@demo.example')).length >= 2);
      expect(smtp.mails.some((m) => m.subject.includes('Hardware error'))).toBe(true);
    });

    it('a flow run failure and a flow task event are notified', async () => {
      await addTarget({ type: 0, level: 0, buildingId, address: 'flows@demo.example' });
      const admin = (await t.as('orgadmin@demo.example')).authorization;
      const map = await t.call('GET', `/floors/${floorId}/map`, admin);
      const saved = await t.call('PUT', `/floors/${floorId}/map`, admin, {
        baseRevision: map.statusCode === 200 ? map.json<{ revision: number }>().revision : 0,
        document: demoMapDocument(),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const created = await t.call('POST', '/flows', admin, {
        name: 'Gauge round',
        description: '',
        buildingId,
        floorId,
        flowGroupId: null,
        enabled: true,
        definition: {
          version: 1,
          steps: [
            { kind: 'taskStart', id: 't', name: 'Gauges' },
            { kind: 'taskEvent', id: 'ev', level: 5, message: 'Gauge B-2 reads high' },
            { kind: 'taskComplete', id: 'tc' },
            { kind: 'wait', id: 'w', seconds: 1 },
            { kind: 'moveToWaypoint', id: 'go', waypointId: 4, onError: { policy: 'abort' } },
          ],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const flowId = created.json<{ id: number }>().id;
      await until(() => !t.link.busy(robotId));
      const run = await t.call('POST', `/flows/${flowId}/runs`, admin, { robotId });
      expect(run.statusCode, run.body).toBe(201);
      const runId = run.json<{ id: number }>().id;
      // The emergency stop pressed during the wait: the move fails the run.
      sim.injectFault('emergencyStop');
      await until(async () => (await events('taskEvent')).length === 1);
      const [task] = await events('taskEvent');
      expect(task).toMatchObject({ level: 5, robot_id: robotId });
      expect(JSON.parse(task!.params)).toMatchObject({ message: 'Gauge B-2 reads high', details: { task: 'Gauges' } });
      await until(async () => (await events('flowRunFailed')).length === 1);
      sim.clearFault('emergencyStop');
      const [failed] = await events('flowRunFailed');
      expect(failed).toMatchObject({ level: 5, robot_id: robotId, dedupe_key: `flowRunFailed:${runId}` });
      // The runner records the event, then its deliveries: rounds until both messages are out.
      const texts = () => smtp.mails.filter((m) => m.to.includes('flows@demo.example')).map((m) => m.text);
      await until(async () => {
        await engine().tick();
        return texts().some((x) => x.includes('flow "Gauge round" failed'));
      });
      expect(texts().some((x) => x.includes('[Gauges] Gauge B-2 reads high'))).toBe(true);
      expect(texts().filter((x) => x.includes('flow "Gauge round" failed'))).toHaveLength(1);
    });

    it('a robot offline longer than NOTIFY_OFFLINE_MINUTES is notified once', async () => {
      await addTarget({ type: 0, level: 5, buildingId, address: 'noc@demo.example' });
      await sim.disconnect({ graceful: false });
      await until(() => !t.link.live({ id: robotId, status: 1 }).online);
      await watcher().idle();
      await until(async () => (await mark('connection')) === 'offline');
      advanceSeconds(4 * 60);
      await engine().tick();
      expect(await events('robotOffline')).toHaveLength(0);
      advanceSeconds(2 * 60);
      await engine().tick();
      await engine().tick();
      expect(await events('robotOffline')).toHaveLength(1);
      await until(() => smtp.mails.some((m) => m.to.includes('noc@demo.example')));
      const mail = smtp.mails.find((m) => m.to.includes('noc@demo.example'))!;
      expect(mail.text).toContain('offline for more than 5 min');
      await sim.reconnect();
      await until(() => t.link.live({ id: robotId, status: 1 }).online);
      await watcher().idle();
      await until(async () => (await mark('connection')) === 'online');
    });

    it('a scheduled occurrence that fails to start is notified', async () => {
      await addTarget({ type: 0, level: 5, buildingId, address: 'plans@demo.example' });
      const admin = (await t.as('orgadmin@demo.example')).authorization;
      const flow = await t.call('POST', '/flows', admin, {
        name: 'Short wait',
        description: '',
        buildingId,
        floorId,
        flowGroupId: null,
        enabled: true,
        definition: { version: 1, steps: [{ kind: 'wait', id: 'w', seconds: 1 }] },
      });
      expect(flow.statusCode, flow.body).toBe(201);
      const local = (minutes: number) => toZoned(clock().getTime() + minutes * 60_000, 'Asia/Tokyo');
      const entry = await t.call('POST', '/schedules', admin, {
        title: 'Night round',
        description: '',
        robotId,
        flowId: flow.json<{ id: number }>().id,
        start: local(2),
        end: local(32),
        repeat: 'none',
        weekdays: [0],
        repeatUntil: null,
        priority: false,
        skipHolidays: false,
        enabled: true,
        exceptions: [],
      });
      expect(entry.statusCode, entry.body).toBe(201);
      // Every server was down from before the due time until long after it: logged as missed.
      advanceSeconds(15 * 60);
      const dispatcher = (t.app as unknown as { scheduleDispatcher: ScheduleDispatcher }).scheduleDispatcher;
      await dispatcher.tick();
      await dispatcher.idle();
      await until(async () => (await events('scheduleFailed')).length === 1);
      const [e] = await events('scheduleFailed');
      expect(e).toMatchObject({ level: 5, robot_id: robotId, building_id: buildingId });
      expect(JSON.parse(e!.params)).toMatchObject({ details: { title: 'Night round', reason: 'MISSED' } });
      await until(async () => {
        await engine().tick();
        return smtp.mails.some((m) => m.to.includes('plans@demo.example'));
      });
      const mail = smtp.mails.find((m) => m.to.includes('plans@demo.example'))!;
      expect(mail.text).toContain('the scheduled run "Night round" failed (MISSED)');
    });
  });
});
