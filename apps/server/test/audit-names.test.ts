import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditLogEntrySchema, auditLogSchema } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 12 item 5: audit entries name their targets. The name is recorded when the entry is
 * written (so a deleted or renamed target still reads as it was); entries written before that
 * (no stored name) are answered with the target's current name.
 */
describe('audit log target names', () => {
  let t: TestApp;
  let admin: string;
  let buildingId: number;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.as('orgadmin@demo.example')).authorization;
    buildingId = (
      await t.db.kysely.selectFrom('buildings').select('id').where('name', '=', 'Demo Tower').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const entries = async (action: string) => {
    const filter = encodeURIComponent(JSON.stringify({ where: { action }, order: 'id ASC' }));
    const res = await t.call('GET', `/audit-logs?filter=${filter}`, admin);
    expect(res.statusCode).toBe(200);
    return (res.json() as unknown[]).map((e) => auditLogEntrySchema.parse(e));
  };

  it('keeps the name of a target that was renamed, then deleted', async () => {
    const created = await t.call('POST', '/robot-groups', admin, { buildingId, name: 'Lobby patrol' });
    expect(created.statusCode).toBe(201);
    const group = created.json<{ id: number; updatedAt: string }>();
    const renamed = await t.call('PATCH', `/robot-groups/${group.id}`, admin, {
      name: 'Garden patrol',
      updatedAt: group.updatedAt,
    });
    expect(renamed.statusCode).toBe(200);
    expect((await t.call('DELETE', `/robot-groups/${group.id}`, admin)).statusCode).toBe(204);

    expect((await entries('robot-group.create')).at(-1)).toMatchObject({
      targetType: 'robot-group',
      targetId: String(group.id),
      targetName: 'Lobby patrol',
    });
    expect((await entries('robot-group.update')).at(-1)?.targetName).toBe('Garden patrol');
    expect((await entries('robot-group.delete')).at(-1)?.targetName).toBe('Garden patrol');
  });

  it('names operators, and sign-ins in the own audit log', async () => {
    const operator = await t.as('operator@demo.example');
    const res = await t.call('GET', '/my/audit-logs?page=1&perPage=20', operator.authorization);
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: unknown[] }>().items.map((e) => auditLogSchema.parse(e));
    const login = items.find((i) => i.action === 'login');
    const op = await t.db.kysely
      .selectFrom('operators')
      .select(['last_name', 'first_name'])
      .where('id', '=', operator.id)
      .executeTakeFirstOrThrow();
    expect(login).toMatchObject({ targetType: 'operator', targetName: `${op.last_name} ${op.first_name}` });
  });

  it("answers an entry written without a name with the target's current name", async () => {
    const floor = await t.db.kysely
      .selectFrom('floors')
      .select(['id', 'name'])
      .where('building_id', '=', buildingId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const org = await t.db.kysely
      .selectFrom('buildings')
      .select('organization_id')
      .where('id', '=', buildingId)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('audit_logs')
      .values({
        at: new Date().toISOString(),
        operator_id: null,
        organization_id: org.organization_id,
        action: 'floor.update',
        target_type: 'floor',
        target_id: String(floor.id),
        target_name: null,
        ip: null,
        detail: null,
      })
      .execute();
    expect((await entries('floor.update')).at(-1)?.targetName).toBe(`Demo Tower ${floor.name}`);
  });

  it('writes only the contract’s action codes', async () => {
    const written = await t.db.kysely.selectFrom('audit_logs').select('action').distinct().execute();
    expect(written.length).toBeGreaterThan(3);
    for (const { action } of written) expect(AUDIT_ACTIONS).toContain(action);
  });
});
