import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evaluateThreshold,
  thresholdLogSchema,
  thresholdRuleSchema,
  type InitData,
  type ThresholdCondition,
  type ThresholdLog,
  type ThresholdRule,
  type ThresholdRuleInput,
} from '@portal/contract';
import { createAudit } from '../src/services/audit.ts';
import { createReadCaches } from '../src/services/read-cache.ts';
import { thresholdService, type ThresholdBreach } from '../src/modules/thresholds/threshold-service.ts';
import { createTestApp, errorOf, type TestApp } from './helpers.ts';

/**
 * Threshold rules and their log (issue 17; docs/api-thresholds.md): CRUD with audit and versioning,
 * roles (administrators manage, everyone of the organization reads), tenancy (another organization's
 * rule is 404), spec §5 validation (400 with field details, nothing written), the evaluation table,
 * and `recordEvaluation` writing a log line per breach with who was notified.
 */
let t: TestApp;
const auth = { general: '', manager: '', orgAdmin: '', sysAdmin: '', otherAdmin: '' };
let demoOrgId: number;
let otherOrgId: number;
let buildingId: number;

const otherData: InitData = {
  organization: { name: 'Other Thresholds Org', type: 0, labOption: false },
  buildings: [{ name: 'Other Threshold Building', floors: [{ name: '1F', index: 1, type: 'office' }] }],
  operators: [
    {
      loginId: 'admin@other-th.example',
      firstName: 'A',
      lastName: 'Other',
      password: 'Other-Admin-2026',
      type: 2,
      building: 0,
    },
  ],
};

const call: TestApp['call'] = (...args) => t.call(...args);
let n = 0;
const uniq = (base: string) => `${base} ${++n}`;

const range = (min: number, max: number): ThresholdCondition => ({ judgment: 'range', target: null, min, max });
const cmp = (judgment: ThresholdCondition['judgment'], target: number): ThresholdCondition => ({
  judgment,
  target,
  min: null,
  max: null,
});

const input = (over: Partial<ThresholdRuleInput> = {}): ThresholdRuleInput => ({
  name: uniq('Boiler pressure'),
  description: 'Boiler room gauge B-1',
  level: 5,
  status: 1,
  conditions: [range(0.2, 0.8)],
  ...over,
});

async function createRule(over: Partial<ThresholdRuleInput> = {}, authorization = auth.orgAdmin) {
  const res = await call('POST', '/threshold-rules', authorization, input(over));
  expect(res.statusCode, res.body).toBe(201);
  return thresholdRuleSchema.parse(res.json());
}

const ruleCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('threshold_rules')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const list = async <T>(path: string, authorization: string, filter?: unknown) => {
  const q = filter === undefined ? '' : `?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const res = await call('GET', `${path}${q}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return { items: res.json<T[]>(), total: Number(res.headers['x-total-count']) };
};

/** A 400 VALIDATION_FAILED whose details are answered as `path:message`; nothing was written. */
async function refused(method: 'POST' | 'PUT', url: string, body: unknown, authorization = auth.orgAdmin) {
  const before = await ruleCount();
  const res = await t.inject({
    method,
    url: `/api${url}`,
    headers: { authorization, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(400);
  const e = errorOf(res);
  expect(e.code).toBe('VALIDATION_FAILED');
  expect(await ruleCount()).toBe(before);
  return (e.details ?? []).map((d) => `${d.path}:${d.message}`);
}

const service = () => {
  const clock = () => new Date();
  return thresholdService({
    config: t.config,
    db: t.db.kysely,
    clock,
    audit: createAudit(t.db.kysely, clock),
    caches: createReadCaches(t.db.dataVersion, false, clock),
  });
};

beforeAll(async () => {
  t = await createTestApp();
  auth.sysAdmin = (await t.as('sysadmin@demo.example')).authorization;
  auth.orgAdmin = (await t.as('orgadmin@demo.example')).authorization;
  auth.manager = (await t.as('manager@demo.example')).authorization;
  auth.general = (await t.as('operator@demo.example')).authorization;
  const b = await t.db.kysely
    .selectFrom('buildings')
    .select(['id', 'organization_id'])
    .where('name', '=', 'Demo Tower')
    .executeTakeFirstOrThrow();
  buildingId = b.id;
  demoOrgId = b.organization_id;
  const imported = await call('POST', '/init-data', auth.sysAdmin, otherData);
  expect(imported.statusCode, imported.body).toBe(201);
  const login = await t.login('admin@other-th.example', 'Other-Admin-2026');
  expect(login.statusCode).toBe(200);
  auth.otherAdmin = `Bearer ${login.json<{ token: string }>().token}`;
  otherOrgId = (
    await t.db.kysely
      .selectFrom('organizations')
      .select('id')
      .where('name', '=', 'Other Thresholds Org')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe('threshold rules', () => {
  it('creates, reads, updates (versioned) and deletes a rule, auditing each change', async () => {
    const body = input({ conditions: [range(0.2, 0.8), cmp('gte', 1.5)] });
    const r = await createRule(body);
    expect(r).toMatchObject({
      organizationId: demoOrgId,
      name: body.name,
      description: body.description,
      level: 5,
      status: 1,
      conditions: body.conditions,
    });
    // Every operator of the organization reads it.
    const read = await call('GET', `/threshold-rules/${r.id}`, auth.general);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(JSON.parse(JSON.stringify(r)));

    const up = await call('PUT', `/threshold-rules/${r.id}`, auth.orgAdmin, {
      ...input({ name: 'Renamed rule', level: 9, status: 0, conditions: [cmp('lt', 3)] }),
      updatedAt: r.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const updated = thresholdRuleSchema.parse(up.json());
    expect(updated).toMatchObject({ name: 'Renamed rule', level: 9, status: 0, conditions: [cmp('lt', 3)] });
    expect(updated.updatedAt).not.toBe(r.updatedAt);

    const stale = await call('PUT', `/threshold-rules/${r.id}`, auth.orgAdmin, {
      ...input({ name: 'Lost' }),
      updatedAt: r.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_UPDATE');
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.orgAdmin)).json<ThresholdRule>().name).toBe(
      'Renamed rule',
    );

    expect((await call('DELETE', `/threshold-rules/${r.id}`, auth.orgAdmin)).statusCode).toBe(204);
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.orgAdmin)).statusCode).toBe(404);
    const gone = await call('PUT', `/threshold-rules/${r.id}`, auth.orgAdmin, {
      ...input(),
      updatedAt: updated.updatedAt,
    });
    expect(gone.statusCode).toBe(404);

    const entries = await t.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'target_type', 'target_name', 'organization_id'])
      .where('target_type', '=', 'threshold-rule')
      .where('target_id', '=', String(r.id))
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['threshold.create', 'threshold.update', 'threshold.delete']);
    expect(entries.every((e) => e.organization_id === demoOrgId)).toBe(true);
    expect(entries[0]!.target_name).toBe(body.name);
  });

  it('lists the organization’s rules with search, level and status filters', async () => {
    const a = await createRule({ name: uniq('Filter tank level'), level: 0, status: 1 });
    const b = await createRule({ name: uniq('Filter tank temp'), level: 9, status: 0 });
    const other = await createRule({ name: uniq('Filter tank other') }, auth.otherAdmin);

    const all = await list<ThresholdRule>('/threshold-rules', auth.general, {
      where: { name: { like: '%Filter tank%' } },
    });
    expect(all.items.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(all.total).toBe(2);
    const emergency = await list<ThresholdRule>('/threshold-rules', auth.orgAdmin, {
      where: { name: { like: '%Filter tank%' }, level: 9 },
    });
    expect(emergency.items.map((r) => r.id)).toEqual([b.id]);
    const enabled = await list<ThresholdRule>('/threshold-rules', auth.orgAdmin, {
      where: { name: { like: '%Filter tank%' }, status: 1 },
    });
    expect(enabled.items.map((r) => r.id)).toEqual([a.id]);
    // System administrators see every organization's.
    const sys = await list<ThresholdRule>('/threshold-rules', auth.sysAdmin, {
      where: { name: { like: '%Filter tank%' } },
    });
    expect(sys.items.map((r) => r.id).sort()).toEqual([a.id, b.id, other.id].sort());
    // An unknown filter field is a 400, not a 500.
    const bad = await call(
      'GET',
      `/threshold-rules?filter=${encodeURIComponent('{"where":{"nope":1}}')}`,
      auth.orgAdmin,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('lets only organization and system administrators change rules', async () => {
    const r = await createRule();
    const before = await ruleCount();
    for (const who of [auth.general, auth.manager]) {
      const created = await call('POST', '/threshold-rules', who, input());
      expect(created.statusCode).toBe(403);
      const up = await call('PUT', `/threshold-rules/${r.id}`, who, { ...input(), updatedAt: r.updatedAt });
      expect(up.statusCode).toBe(403);
      expect((await call('DELETE', `/threshold-rules/${r.id}`, who)).statusCode).toBe(403);
    }
    expect(await ruleCount()).toBe(before);
    // Area managers still read.
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.manager)).statusCode).toBe(200);
    // A system administrator changes any organization's rule and may create one for another.
    const up = await call('PUT', `/threshold-rules/${r.id}`, auth.sysAdmin, {
      ...input({ name: 'Set by sysadmin' }),
      updatedAt: r.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    const forOther = await createRule({ organizationId: otherOrgId }, auth.sysAdmin);
    expect(forOther.organizationId).toBe(otherOrgId);
    // Others may not name another organization.
    expect(await refused('POST', '/threshold-rules', input({ organizationId: otherOrgId }))).toEqual([
      'organizationId:validation.notFound',
    ]);
  });

  it('refuses to delete a rule that check items use, naming them (409 IN_USE)', async () => {
    const r = await createRule();
    const floor = await t.db.kysely
      .selectFrom('floors')
      .select('id')
      .where('building_id', '=', buildingId)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const item = await t.db.kysely
      .insertInto('check_items')
      .values({
        organization_id: demoOrgId,
        building_id: buildingId,
        floor_id: floor.id,
        name: 'Gauge using the rule',
        type: 'meter',
        status: 1,
        meter_type: null,
        reading_service: null,
        qr_code_number: '',
        task_id: '',
        device_id: '',
        alerting: 1,
        threshold_rule_id: r.id,
        x: null,
        y: null,
        z: 0,
        direction: 0,
        marker_type: '',
        area_detection_marker: 0,
        definition: '{}',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await call('DELETE', `/threshold-rules/${r.id}`, auth.orgAdmin);
    expect(refused.statusCode).toBe(409);
    const e = errorOf(refused);
    expect(e.code).toBe('IN_USE');
    expect(e.details).toEqual([
      { path: `checkItems.${item.id}`, message: 'Gauge using the rule', code: 'thresholds.inUse' },
    ]);
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.orgAdmin)).statusCode).toBe(200);

    await t.db.kysely.deleteFrom('check_items').where('id', '=', item.id).execute();
    expect((await call('DELETE', `/threshold-rules/${r.id}`, auth.orgAdmin)).statusCode).toBe(204);
  });

  it('answers another organization’s rule as not found', async () => {
    const r = await createRule();
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const up = await call('PUT', `/threshold-rules/${r.id}`, auth.otherAdmin, { ...input(), updatedAt: r.updatedAt });
    expect(up.statusCode).toBe(404);
    expect((await call('DELETE', `/threshold-rules/${r.id}`, auth.otherAdmin)).statusCode).toBe(404);
    const theirs = await list<ThresholdRule>('/threshold-rules', auth.otherAdmin);
    expect(theirs.items.some((x) => x.id === r.id)).toBe(false);
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.orgAdmin)).json<ThresholdRule>().name).toBe(r.name);
  });

  it('refuses invalid rules with field details and writes nothing (spec §5)', async () => {
    expect(await refused('POST', '/threshold-rules', input({ name: '  ' }))).toEqual(['name:validation.required']);
    expect(await refused('POST', '/threshold-rules', input({ name: 'x'.repeat(65) }))).toEqual([
      'name:validation.max64',
    ]);
    expect(await refused('POST', '/threshold-rules', input({ description: 'x'.repeat(257) }))).toEqual([
      'description:validation.max256',
    ]);
    expect(await refused('POST', '/threshold-rules', input({ conditions: [] }))).toEqual([
      'conditions:thresholdValidation.conditionsRequired',
    ]);
    const { conditions: _, ...noConditions } = input();
    expect(await refused('POST', '/threshold-rules', noConditions)).toEqual([
      'conditions:thresholdValidation.conditionsRequired',
    ]);
    expect(await refused('POST', '/threshold-rules', input({ conditions: [range(5, 1)] }))).toEqual([
      'conditions.0.max:thresholdValidation.minMax',
    ]);
    expect(
      await refused('POST', '/threshold-rules', input({ conditions: [range(0, 1), { ...range(0, 1), min: null }] })),
    ).toEqual(['conditions.1.min:validation.required']);
    expect(
      await refused('POST', '/threshold-rules', input({ conditions: [{ ...cmp('gt', 1), target: null }] })),
    ).toEqual(['conditions.0.target:validation.required']);
    expect(
      await refused('POST', '/threshold-rules', {
        ...input(),
        conditions: [{ judgment: 'gt', target: 'abc', min: null, max: null }],
      }),
    ).toEqual(['conditions.0.target:validation.number']);
    expect(
      await refused(
        'POST',
        '/threshold-rules',
        input({ conditions: [{ judgment: 'between' as 'gt', target: 1, min: null, max: null }] }),
      ),
    ).toEqual(['conditions.0.judgment:validation.required']);
    // Not infinite: 1e999 is Infinity once the JSON is parsed.
    const body = JSON.stringify(input({ conditions: [cmp('gt', 7)] })).replace('"target":7', '"target":1e999');
    expect(body).toContain('1e999');
    expect(await refused('POST', '/threshold-rules', body)).toEqual(['conditions.0.target:thresholdValidation.finite']);
    // Within range.
    expect(await refused('POST', '/threshold-rules', input({ conditions: [range(-2e9, 1)] }))).toEqual([
      'conditions.0.min:thresholdValidation.valueRange',
    ]);
    expect(await refused('POST', '/threshold-rules', input({ level: 3 as 5 }))).toEqual(['level:validation.invalid']);
    expect(await refused('POST', '/threshold-rules', input({ status: 2 as 1 }))).toEqual([
      'status:validation.required',
    ]);
    expect(
      await refused('POST', '/threshold-rules', input({ conditions: Array.from({ length: 11 }, () => range(0, 1)) })),
    ).toEqual(['conditions:validation.tooMany']);

    // An edit is checked the same way and changes nothing.
    const r = await createRule();
    expect(
      await refused('PUT', `/threshold-rules/${r.id}`, {
        ...input({ conditions: [range(9, 1)] }),
        updatedAt: r.updatedAt,
      }),
    ).toEqual(['conditions.0.max:thresholdValidation.minMax']);
    expect((await call('GET', `/threshold-rules/${r.id}`, auth.orgAdmin)).json()).toEqual(
      JSON.parse(JSON.stringify(r)),
    );
    // A bad id is a 400, not a 500.
    expect((await call('GET', '/threshold-rules/abc', auth.orgAdmin)).statusCode).toBe(400);
  });
});

describe('evaluateThreshold', () => {
  const rule = (conditions: ThresholdCondition[], status = 1) => ({ status, conditions });
  const table: Array<[string, ThresholdCondition, number, boolean]> = [
    ['range below min', range(0.2, 0.8), 0.1, true],
    ['range at min', range(0.2, 0.8), 0.2, false],
    ['range inside', range(0.2, 0.8), 0.5, false],
    ['range at max', range(0.2, 0.8), 0.8, false],
    ['range above max', range(0.2, 0.8), 0.81, true],
    ['gt above', cmp('gt', 10), 10.5, true],
    ['gt equal', cmp('gt', 10), 10, false],
    ['gte equal', cmp('gte', 10), 10, true],
    ['gte below', cmp('gte', 10), 9.9, false],
    ['lt below', cmp('lt', 0), -1, true],
    ['lt equal', cmp('lt', 0), 0, false],
    ['lte equal', cmp('lte', 0), 0, true],
    ['lte above', cmp('lte', 0), 0.1, false],
    ['eq equal', cmp('eq', 3), 3, true],
    ['eq other', cmp('eq', 3), 3.1, false],
    ['ne other', cmp('ne', 3), 4, true],
    ['ne equal', cmp('ne', 3), 3, false],
  ];
  it.each(table)('%s', (_, condition, value, breached) => {
    expect(evaluateThreshold(rule([condition]), value)).toEqual(breached ? condition : null);
  });

  it('answers the first breached condition, nothing for a disabled rule or a value not read', () => {
    const conditions = [cmp('gt', 100), range(0, 50), cmp('gt', 60)];
    expect(evaluateThreshold(rule(conditions), 70)).toEqual(range(0, 50));
    expect(evaluateThreshold(rule(conditions), 120)).toEqual(cmp('gt', 100));
    expect(evaluateThreshold(rule(conditions), 10)).toBeNull();
    expect(evaluateThreshold(rule(conditions, 0), 120)).toBeNull();
    expect(evaluateThreshold(rule(conditions), Number.NaN)).toBeNull();
    expect(evaluateThreshold(rule(conditions), Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('threshold log', () => {
  it('records each breach with its value, rule, check item, photo and who was notified', async () => {
    const s = service();
    const r = await createRule({ name: uniq('Log gauge'), level: 9, conditions: [range(1, 5)] });
    const reading = {
      ruleId: r.id,
      organizationId: demoOrgId,
      buildingId,
      robotId: null,
      checkItemId: 42,
      checkItemName: 'Gauge B-1',
      photoFileKey: 'photo-key-1',
      reportId: 7,
      reportDetailId: 70,
    };
    const seen: ThresholdBreach[] = [];
    const hook = async (b: ThresholdBreach) => {
      seen.push(b);
      return [{ channel: 'email', targetId: 3, name: 'security@demo.example' }];
    };

    expect(await s.recordEvaluation({ ...reading, value: 3 }, { onBreach: hook })).toBeNull();
    expect(seen).toHaveLength(0);
    const breach = await s.recordEvaluation(
      { ...reading, value: 7.5, at: '2026-11-20T01:00:00.000Z' },
      { onBreach: hook },
    );
    expect(breach).not.toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.rule.id).toBe(r.id);
    expect(breach!.log).toMatchObject({
      ruleId: r.id,
      ruleName: r.name,
      checkItemId: 42,
      checkItemName: 'Gauge B-1',
      value: 7.5,
      condition: range(1, 5),
      level: 9,
      photoFileKey: 'photo-key-1',
      reportId: 7,
      reportDetailId: 70,
      buildingId,
      notified: [{ channel: 'email', targetId: 3, name: 'security@demo.example' }],
      at: '2026-11-20T01:00:00.000Z',
    });
    // The photo is answered with a signed URL an <img> can load.
    expect(breach!.log.photoUrl).toMatch(/\/files\/photo-key-1\?exp=\d+&sig=/);
    // Without a hook the breach is still logged, with nobody notified.
    const quiet = await s.recordEvaluation({ ...reading, value: 0, at: '2026-11-20T02:00:00.000Z' });
    expect(quiet!.log.notified).toEqual([]);
    // Another organization's rule is never evaluated for this check item.
    expect(await s.recordEvaluation({ ...reading, organizationId: otherOrgId, value: 99 })).toBeNull();

    const byRule = await list<ThresholdLog>('/threshold-logs', auth.orgAdmin, { where: { ruleId: r.id } });
    expect(byRule.items.map((l) => thresholdLogSchema.parse(l).value)).toEqual([0, 7.5]);
    expect(byRule.total).toBe(2);
    const byDate = await list<ThresholdLog>('/threshold-logs', auth.orgAdmin, {
      where: { ruleId: r.id, at: { gte: '2026-11-20T01:30:00.000Z' } },
    });
    expect(byDate.items.map((l) => l.value)).toEqual([0]);
    const byLevel = await list<ThresholdLog>('/threshold-logs', auth.orgAdmin, { where: { ruleId: r.id, level: 5 } });
    expect(byLevel.total).toBe(0);
    // General operators read their building's lines; another organization none.
    expect((await list<ThresholdLog>('/threshold-logs', auth.general, { where: { ruleId: r.id } })).total).toBe(2);
    expect((await list<ThresholdLog>('/threshold-logs', auth.otherAdmin, { where: { ruleId: r.id } })).total).toBe(0);

    // A disabled rule logs nothing.
    const up = await call('PUT', `/threshold-rules/${r.id}`, auth.orgAdmin, {
      ...input({ name: r.name, level: 9, status: 0, conditions: [range(1, 5)] }),
      updatedAt: r.updatedAt,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(await s.recordEvaluation({ ...reading, value: 100 })).toBeNull();

    // Deleting the rule keeps its log lines, named by the rule's name.
    expect((await call('DELETE', `/threshold-rules/${r.id}`, auth.orgAdmin)).statusCode).toBe(204);
    const kept = await list<ThresholdLog>('/threshold-logs', auth.orgAdmin, { where: { ruleName: r.name } });
    expect(kept.items.map((l) => [l.ruleId, l.ruleName])).toEqual([
      [null, r.name],
      [null, r.name],
    ]);
  });

  it('shows general operators only the lines of their own building', async () => {
    const s = service();
    const r = await createRule({ conditions: [cmp('gt', 0)] });
    // A log line names its building without a foreign key (the log outlives what it names).
    const elsewhere = buildingId + 100_000;
    await s.recordEvaluation({
      ruleId: r.id,
      organizationId: demoOrgId,
      buildingId: elsewhere,
      robotId: null,
      checkItemId: null,
      checkItemName: 'Annex gauge',
      value: 1,
    });
    const mine = await list<ThresholdLog>('/threshold-logs', auth.general, { where: { ruleId: r.id } });
    expect(mine.total).toBe(0);
    const admin = await list<ThresholdLog>('/threshold-logs', auth.orgAdmin, { where: { ruleId: r.id } });
    expect(admin.items.map((l) => l.checkItemName)).toEqual(['Annex gauge']);
  });
});
