import {
  buildingOps,
  buildingSchema,
  flowOps,
  groupOpsByKind,
  organizationOps,
  robotOps,
  thresholdOps,
  triggerOps,
  triggerSchema,
  webhookOps,
  type Trigger,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { json, mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const at = '2026-01-05T09:00:00.000Z';
const slow = { timeout: 5000 };

const building = buildingSchema.parse({
  id: 10,
  name: 'Marunouchi Tower',
  prefecture: '13',
  city: 'Chiyoda',
  address: '1-1',
  postalCode: '100-0005',
  latitude: 35.68,
  longitude: 139.76,
  organizationId: 1,
  status: 1,
  ipRestrictionEnabled: false,
  timeZone: 'Asia/Tokyo',
  createdAt: at,
  updatedAt: at,
  groups: [],
  flowGroups: [],
});

const makeTrigger = (over: Partial<Trigger> = {}): Trigger =>
  triggerSchema.parse({
    id: 5,
    organizationId: 1,
    buildingId: 10,
    name: 'E-stop: notify security',
    status: 1,
    eventType: 1,
    conditions: { version: 1, robotStatuses: ['emergencyStop'], robotId: null, robotGroupId: null },
    targetType: 1,
    target: { version: 1, targetIds: [3], level: 9, message: 'Go and look' },
    createdAt: at,
    updatedAt: at,
    ...over,
  });

const page = (items: unknown[]) => () =>
  new Response(JSON.stringify(items), { status: 200, headers: { 'X-Total-Count': String(items.length) } });

function routes(triggers: Trigger[]) {
  return {
    ...signedInRoutes(),
    [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building),
    [on(triggerOps.listTriggers)]: page(triggers),
    [on(flowOps.listFlows)]: page([]),
    [on(robotOps.listRobots)]: page([]),
    [on(thresholdOps.listThresholdRules)]: page([]),
    [on(groupOpsByKind['robot-group'].list)]: () => json(200, []),
    [on(organizationOps.listNotifTargets)]: () => json(200, []),
    [on(webhookOps.listWebhooks)]: () => json(200, []),
  };
}

describe('building triggers', { timeout: 20_000 }, () => {
  it('lists the building’s triggers with their event and action, paged by the list kit', async () => {
    const api = mockApi(
      routes([makeTrigger(), makeTrigger({ id: 6, name: 'Breach: report', eventType: 2, targetType: 2, status: 0 })]),
    );
    renderApp('/building/10?tab=triggers', { session: makeSession(2) });
    const row = await screen.findByTestId('trigger-row-5', {}, slow);
    expect(row).toHaveTextContent('E-stop: notify security');
    expect(row).toHaveTextContent('Robot status: Emergency stop');
    expect(row).toHaveTextContent('Notify');
    expect(screen.getByTestId('trigger-row-6')).toHaveTextContent('Record a report entry');
    expect(screen.getByTestId('trigger-row-6')).toHaveTextContent('Disabled');
    expect(screen.getByText('2 triggers')).toBeInTheDocument();
    const call = api.calls.find((c) => c.path === '/api/triggers');
    expect(JSON.parse(call?.search.get('filter') ?? '{}')).toMatchObject({
      where: { buildingId: 10 },
      limit: 20,
      skip: 0,
    });
  });

  it('creates a trigger in a dialog; calendar, chat and Teams are shown disabled; server field errors show under the field', async () => {
    let fail = true;
    const api = mockApi({
      ...routes([]),
      [on(triggerOps.createTrigger)]: (call) =>
        fail
          ? replyError('VALIDATION_FAILED', [{ path: 'name', message: 'validation.max64' }])
          : reply(
              triggerSchema,
              makeTrigger({ ...(call.body as object), id: 9, createdAt: at, updatedAt: at } as never),
              201,
            ),
    });
    const app = renderApp('/building/10?tab=triggers', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('trigger-create', {}, slow));
    const dialog = await screen.findByRole('dialog');
    const eventType = within(dialog).getByTestId('trigger-event-type');
    const option = (v: string) => within(eventType).getByRole('option', { name: new RegExp(v) }) as HTMLOptionElement;
    expect(option('Calendar').disabled).toBe(true);
    expect(option('Chat').disabled).toBe(true);
    expect(option('Teams').disabled).toBe(true);
    expect(option('Robot status').disabled).toBe(false);
    expect(within(dialog).getByText(/Calendar, chat and Teams are not available yet/)).toBeInTheDocument();

    await app.user.type(within(dialog).getByTestId('trigger-name'), 'E-stop: record');
    await app.user.selectOptions(within(dialog).getByTestId('trigger-target-type'), '2');
    expect(within(dialog).getByText(/Records a report entry/)).toBeInTheDocument();
    await app.user.click(within(dialog).getByTestId('trigger-save'));
    expect(await within(dialog).findByText('Enter at most 64 characters')).toBeInTheDocument();

    fail = false;
    await app.user.click(within(dialog).getByTestId('trigger-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = api.calls.filter((c) => c.method === 'POST' && c.path === '/api/triggers');
    expect(posts.at(-1)?.body).toMatchObject({
      buildingId: 10,
      name: 'E-stop: record',
      status: 1,
      eventType: 1,
      conditions: { robotStatuses: ['emergencyStop'] },
      targetType: 2,
    });
  });

  it('shows general operators the triggers read-only, in Japanese', async () => {
    await i18n.changeLanguage('ja');
    mockApi(routes([makeTrigger()]));
    const app = renderApp('/building/10?tab=triggers', { session: makeSession(0) });
    const row = await screen.findByTestId('trigger-row-5', {}, slow);
    expect(row).toHaveTextContent('ロボットの状態: 非常停止');
    expect(screen.queryByTestId('trigger-create')).toBeNull();
    await app.user.click(within(row).getByRole('button', { name: '表示' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('trigger-save')).toBeNull();
    await i18n.changeLanguage('en');
  });
});
