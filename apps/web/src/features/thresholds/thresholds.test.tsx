import {
  thresholdLogSchema,
  thresholdOps,
  thresholdRuleSchema,
  type ThresholdLog,
  type ThresholdRule,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { thresholdsEn } from '@/locales/en/thresholds';
import { thresholdsJa } from '@/locales/ja/thresholds';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };
const texts = thresholdsEn.thresholds;

const rule = (id: number, name: string, over: Partial<ThresholdRule> = {}): ThresholdRule =>
  thresholdRuleSchema.parse({
    id,
    organizationId: 1,
    name,
    description: '',
    level: 5,
    status: 1,
    conditions: [{ judgment: 'range', target: null, min: 0.2, max: 0.8 }],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const filterOf = (search: URLSearchParams) => JSON.parse(search.get('filter') ?? '{}') as { where?: unknown };

describe('threshold form: the conditions editor', () => {
  it('adds and removes rows, shows the values each judgment needs, checks them as the server does, and creates the rule', async () => {
    let answer: 'invalid' | 'ok' = 'invalid';
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.createThresholdRule)]: (c) =>
        answer === 'invalid'
          ? replyError('VALIDATION_FAILED', [
              { path: 'conditions.1.target', message: 'thresholdValidation.valueRange' },
            ])
          : reply(thresholdRuleSchema, { ...rule(9, 'x'), ...(c.body as object) }, 201),
      [on(thresholdOps.getThresholdRule, { id: 9 })]: () => reply(thresholdRuleSchema, rule(9, 'Boiler')),
    });
    const app = renderApp('/threshold/create', { session: makeSession(2) });
    await screen.findByTestId('threshold-form', {}, slow);

    // One range row to start with: min and max, no target.
    expect(screen.getByTestId('threshold-condition-0-min')).toBeInTheDocument();
    expect(screen.getByTestId('threshold-condition-0-max')).toBeInTheDocument();
    expect(screen.queryByTestId('threshold-condition-0-target')).not.toBeInTheDocument();

    // Removing the only row: saving asks for at least one condition, and nothing is sent.
    await app.user.type(screen.getByTestId('threshold-name'), 'Boiler pressure');
    await app.user.click(screen.getByTestId('threshold-condition-0-remove'));
    expect(screen.getByTestId('threshold-conditions-none')).toHaveTextContent(texts.condition.none);
    await app.user.click(screen.getByTestId('threshold-save'));
    expect(await screen.findByTestId('threshold-conditions-error')).toHaveTextContent(
      thresholdsEn.thresholdValidation.conditionsRequired,
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    // A range whose min is above its max, and values not entered or not finite.
    await app.user.click(screen.getByTestId('threshold-condition-add'));
    await app.user.type(screen.getByTestId('threshold-condition-0-min'), '5');
    await app.user.type(screen.getByTestId('threshold-condition-0-max'), '1');
    await app.user.click(screen.getByTestId('threshold-condition-add'));
    await app.user.selectOptions(screen.getByTestId('threshold-condition-1-judgment'), 'gte');
    expect(screen.queryByTestId('threshold-condition-1-min')).not.toBeInTheDocument();
    await app.user.click(screen.getByTestId('threshold-save'));
    const row0 = screen.getByTestId('threshold-condition-0');
    expect(await within(row0).findByText(thresholdsEn.thresholdValidation.minMax)).toBeInTheDocument();
    expect(within(screen.getByTestId('threshold-condition-1')).getByText('Required')).toBeInTheDocument();
    await app.user.type(screen.getByTestId('threshold-condition-1-target'), '1e999');
    await app.user.click(screen.getByTestId('threshold-save'));
    expect(
      await within(screen.getByTestId('threshold-condition-1')).findByText(thresholdsEn.thresholdValidation.finite),
    ).toBeInTheDocument();
    await app.user.clear(screen.getByTestId('threshold-condition-1-target'));
    await app.user.type(screen.getByTestId('threshold-condition-1-target'), 'abc');
    await app.user.click(screen.getByTestId('threshold-save'));
    expect(await within(screen.getByTestId('threshold-condition-1')).findByText('Enter a number')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    // Fixed values; a third row added and removed again.
    await app.user.clear(screen.getByTestId('threshold-condition-0-min'));
    await app.user.type(screen.getByTestId('threshold-condition-0-min'), '0.2');
    await app.user.clear(screen.getByTestId('threshold-condition-0-max'));
    await app.user.type(screen.getByTestId('threshold-condition-0-max'), '0.8');
    await app.user.clear(screen.getByTestId('threshold-condition-1-target'));
    await app.user.type(screen.getByTestId('threshold-condition-1-target'), '1.5');
    await app.user.click(screen.getByTestId('threshold-condition-add'));
    expect(screen.getByTestId('threshold-condition-2')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Remove condition 3' }));
    expect(screen.queryByTestId('threshold-condition-2')).not.toBeInTheDocument();
    await app.user.selectOptions(screen.getByTestId('threshold-level'), '9');

    // The server's reason goes under the value it names.
    await app.user.click(screen.getByTestId('threshold-save'));
    expect(
      await within(screen.getByTestId('threshold-condition-1')).findByText(
        thresholdsEn.thresholdValidation.valueRange,
        {},
        slow,
      ),
    ).toBeInTheDocument();

    answer = 'ok';
    await app.user.click(screen.getByTestId('threshold-save'));
    await waitFor(() => expect(app.location()).toBe('/threshold/9'));
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      name: 'Boiler pressure',
      description: '',
      level: 9,
      status: 1,
      conditions: [
        { judgment: 'range', target: null, min: 0.2, max: 0.8 },
        { judgment: 'gte', target: 1.5, min: null, max: null },
      ],
    });
  }, 90_000);

  it('a stale save opens the conflict dialog; "show the stored version" puts back the stored conditions', async () => {
    let stored = rule(5, 'Tank level');
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.getThresholdRule, { id: 5 })]: () => reply(thresholdRuleSchema, stored),
      [on(thresholdOps.updateThresholdRule, { id: 5 })]: () => replyError('STALE_UPDATE'),
    });
    const app = renderApp('/threshold/5', { session: makeSession(2) });
    const max = await screen.findByTestId('threshold-condition-0-max', {}, slow);
    await app.user.clear(max);
    await app.user.type(max, '0.9');
    stored = rule(5, 'Tank level', {
      conditions: [{ judgment: 'lt', target: 3, min: null, max: null }],
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    await app.user.click(screen.getByTestId('threshold-save'));
    await app.user.click(await screen.findByTestId('conflict-reload', {}, slow));
    await waitFor(() => expect(screen.getByTestId('threshold-condition-0-target')).toHaveValue('3'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      conditions: [{ judgment: 'range', target: null, min: 0.2, max: 0.9 }],
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  }, 30_000);

  it('names the check items that use a rule when its delete is refused', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.getThresholdRule, { id: 5 })]: () => reply(thresholdRuleSchema, rule(5, 'Tank level')),
      [on(thresholdOps.deleteThresholdRule, { id: 5 })]: () =>
        replyError('IN_USE', [{ path: 'checkItems.8', message: 'Roof tank gauge', code: 'thresholds.inUse' }]),
    });
    const app = renderApp('/threshold/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('threshold-delete', {}, slow));
    const dialog = await screen.findByRole('dialog', {}, slow);
    await app.user.click(within(dialog).getByRole('button', { name: texts.delete }));
    const alert = await screen.findByTestId('threshold-delete-error', {}, slow);
    expect(alert).toHaveTextContent(texts.inUse);
    expect(within(alert).getByRole('link', { name: 'Roof tank gauge' })).toHaveAttribute('href', '/check-item/8');
    expect(app.location()).toBe('/threshold/5');
  }, 30_000);

  it('is read-only, with the notice to ask the organization administrator, for area managers and general operators', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.getThresholdRule, { id: 5 })]: () => reply(thresholdRuleSchema, rule(5, 'Tank level')),
    });
    renderApp('/threshold/5', { session: makeSession(1) });
    expect(await screen.findByTestId('threshold-title', {}, slow)).toHaveTextContent('Tank level');
    expect(screen.getByTestId('threshold-read-only')).toHaveTextContent(texts.readOnly);
    expect(screen.queryByTestId('threshold-save')).not.toBeInTheDocument();
    expect(screen.queryByTestId('threshold-delete')).not.toBeInTheDocument();
    expect(screen.queryByTestId('threshold-condition-add')).not.toBeInTheDocument();
    expect(screen.getByTestId('threshold-condition-0-min')).toBeDisabled();
  }, 20_000);
});

describe('threshold list and log', () => {
  it('lists the rules and sends the search, status and level filters', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.listThresholdRules)]: () =>
        reply(z.array(thresholdRuleSchema), [
          rule(3, 'Boiler pressure', {
            level: 9,
            conditions: [
              { judgment: 'range', target: null, min: 0.2, max: 0.8 },
              { judgment: 'gte', target: 1.5, min: null, max: null },
            ],
          }),
        ]),
    });
    const app = renderApp('/threshold/list', { session: makeSession(0) });
    const row = await screen.findByTestId('threshold-row-3', {}, slow);
    expect(row).toHaveTextContent('Boiler pressure');
    expect(row).toHaveTextContent('Emergency');
    expect(row).toHaveTextContent('outside 0.2 – 0.8 / ≥ 1.5');
    // General operators read, without the create button, and are told whom to ask.
    expect(screen.queryByTestId('threshold-create')).not.toBeInTheDocument();
    expect(screen.getByTestId('threshold-read-only')).toHaveTextContent(texts.readOnly);

    await app.user.selectOptions(screen.getByTestId('threshold-list-status'), '1');
    await app.user.selectOptions(screen.getByTestId('threshold-list-level'), '9');
    await app.user.type(screen.getByTestId('threshold-list-search'), 'boiler{Enter}');
    await waitFor(() =>
      expect(
        filterOf(calls.filter((c) => c.method === 'GET' && c.path === '/api/threshold-rules').at(-1)!.search),
      ).toEqual(
        expect.objectContaining({ where: { and: [{ name: { like: '%boiler%' } }, { status: 1 }, { level: 9 }] } }),
      ),
    );
    expect(app.location()).toContain('level=9');
  }, 30_000);

  it('shows the log with the value, condition, who was notified and the photo, filtered by rule and level', async () => {
    const line: ThresholdLog = thresholdLogSchema.parse({
      id: 11,
      organizationId: 1,
      buildingId: null,
      robotId: 4,
      ruleId: 3,
      ruleName: 'Boiler pressure',
      checkItemId: 8,
      checkItemName: 'Gauge B-1',
      value: 0.95,
      condition: { judgment: 'range', target: null, min: 0.2, max: 0.8 },
      level: 9,
      photoFileKey: 'k1',
      photoUrl: '/api/files/k1?exp=1&sig=x',
      reportId: null,
      reportDetailId: null,
      notified: [{ channel: 'email', targetId: 2, name: 'security@demo.example' }],
      at: '2026-11-20T01:00:00.000Z',
    });
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(thresholdOps.listThresholdLogs)]: () => reply(z.array(thresholdLogSchema), [line]),
      [on(thresholdOps.listThresholdRules)]: () => reply(z.array(thresholdRuleSchema), [rule(3, 'Boiler pressure')]),
    });
    const app = renderApp('/threshold/log/1', { session: makeSession(0) });
    const row = await screen.findByTestId('threshold-log-row-11', {}, slow);
    expect(row).toHaveTextContent('Boiler pressure');
    expect(row).toHaveTextContent('Gauge B-1');
    expect(row).toHaveTextContent('0.95');
    expect(row).toHaveTextContent('outside 0.2 – 0.8');
    expect(row).toHaveTextContent('Emergency');
    expect(screen.getByTestId('threshold-log-notified-11')).toHaveTextContent('security@demo.example');
    expect(screen.getByTestId('threshold-log-photo-11')).toHaveAttribute('href', '/api/files/k1?exp=1&sig=x');

    await waitFor(() =>
      expect(within(screen.getByTestId('threshold-log-rule')).getByText('Boiler pressure')).toBeInTheDocument(),
    );
    await app.user.selectOptions(screen.getByTestId('threshold-log-rule'), '3');
    await app.user.selectOptions(screen.getByTestId('threshold-log-level'), '9');
    await waitFor(() =>
      expect(
        filterOf(calls.filter((c) => c.method === 'GET' && c.path === '/api/threshold-logs').at(-1)!.search),
      ).toEqual(expect.objectContaining({ where: { and: [{ ruleId: 3 }, { level: 9 }] } })),
    );
    expect(app.location()).toBe('/threshold/log/1?rule=3&level=9');
  }, 30_000);
});

describe('thresholds section texts', () => {
  it('has the §6 notice in both languages', () => {
    expect(thresholdsJa.thresholds.readOnly).toContain('組織の管理者');
  });
});
