import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverySchema, errorBodySchema, paged } from '@portal/contract';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const request = (payload: unknown) =>
  t.inject({ method: 'POST', url: '/api/registration-requests', payload: payload as object });

describe('POST /api/registration-requests', () => {
  it('stores the request and mails it to the system administrators, readable in the delivery log', async () => {
    const res = await request({
      lastName: '伊藤',
      firstName: '健',
      email: 'Ken.Ito@Example.com',
      organizationName: 'New Co.',
      message: 'Two buildings in Osaka',
    });
    expect(res.statusCode).toBe(202);
    const row = await t.db.kysely.selectFrom('registration_requests').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: 'ken.ito@example.com',
      organization_name: 'New Co.',
      message: 'Two buildings in Osaka',
    });
    const { authorization } = await t.as('sysadmin@demo.example');
    const log = paged(deliverySchema).parse(
      (await t.inject({ method: 'GET', url: '/api/deliveries', headers: { authorization } })).json(),
    );
    const mail = log.items.find((d) => d.purpose === 'registration-request');
    expect(mail).toMatchObject({ channel: 'email', recipient: 'sysadmin@demo.example', status: 'stored' });
    expect(mail?.body).toContain('Two buildings in Osaka');
  });

  it('refuses invalid requests with localized keys and stores nothing', async () => {
    const res = await request({
      lastName: '',
      firstName: 'x'.repeat(21),
      email: 'nope',
      organizationName: '',
      message: 'm'.repeat(1001),
    });
    expect(res.statusCode).toBe(400);
    const details = errorBodySchema.parse(res.json()).error.details?.map((d) => `${d.path}:${d.message}`);
    expect(details).toEqual(
      expect.arrayContaining([
        'lastName:validation.required',
        'firstName:validation.max20',
        'email:validation.email',
        'organizationName:validation.required',
        'message:validation.tooLong',
      ]),
    );
    expect(await t.db.kysely.selectFrom('registration_requests').selectAll().execute()).toHaveLength(0);
  });
});
