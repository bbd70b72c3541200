import {
  activityOps,
  buildingOps,
  buildingSchema,
  groupOpsByKind,
  groupSchema,
  robotActivityEntrySchema,
  robotOps,
  robotSchema,
  type Robot,
  type RobotActivityEntry,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeRealtime } from '@/testing/fake-realtime';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { json, mockApi, on, reply, type ApiCall, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

/**
 * The robot page's activity log: entries rendered in words from code and parameters (en and ja),
 * level badges, times in the building's zone, and the filters and the page sent as the API's filter.
 */
const slow = { timeout: 10_000 };

const robot = (): Robot =>
  robotSchema.parse({
    id: 55,
    serialNo: 'UGO-55',
    name: 'Lobby guide',
    model: 'mini',
    version: '',
    hardwareRevision: '',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Tokyo Office',
    floorId: 1,
    floorName: '1F',
    groupId: null,
    groupName: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'high',
    notes: '',
    mqttUsername: 'robot-UGO-55',
    manufacturer: 'ugo',
    lastCommunicationAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

const building = buildingSchema.parse({
  id: 10,
  name: 'Tokyo Office',
  prefecture: null,
  city: null,
  address: null,
  postalCode: null,
  latitude: null,
  longitude: null,
  organizationId: 1,
  status: 1,
  ipRestrictionEnabled: false,
  timeZone: 'Asia/Tokyo',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const entry = (id: number, over: Partial<RobotActivityEntry>): RobotActivityEntry =>
  robotActivityEntrySchema.parse({
    id,
    robotId: 55,
    buildingId: 10,
    at: '2026-03-31T16:05:00.000Z',
    level: 6,
    kind: 'connection',
    code: 'online',
    params: {},
    ...over,
  });

const entries = [
  entry(5, { level: 1, kind: 'battery', code: 'low', params: { percent: 19, threshold: 20 } }),
  entry(4, {
    level: 2,
    kind: 'robotError',
    code: 'errorRaised',
    params: { errorType: 'hardwareError', errorLevel: 'FATAL', description: 'Hardware error' },
  }),
  entry(3, {
    kind: 'teleop',
    code: 'controlEnded',
    params: { operatorId: 3, operatorName: 'Yamada Taro', reason: 'released' },
  }),
  entry(2, { level: 4, kind: 'connection', code: 'connectionBroken' }),
  entry(1, { level: 5, kind: 'osUpdate', code: 'updated', params: { from: '2.3.0', to: '2.4.0' } }),
];

let realtime: FakeRealtime;
beforeEach(() => {
  realtime = new FakeRealtime();
});

const routes = (activity: (call: ApiCall) => Response): Routes => ({
  ...signedInRoutes(),
  [on(groupOpsByKind['robot-group'].list)]: () => reply(z.array(groupSchema), []),
  [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building),
  [on(robotOps.getRobot)]: () => reply(robotSchema, robot()),
  [on(activityOps.listRobotActivity)]: activity,
});

const page = (items: RobotActivityEntry[], total: number) => {
  const r = reply(z.array(robotActivityEntrySchema), items);
  r.headers.set('X-Total-Count', String(total));
  return r;
};

/** The filter of each activity call, parsed. */
const filters = (calls: ApiCall[]) =>
  calls
    .filter((c) => c.path === '/api/robots/55/activity')
    .map((c) => JSON.parse(c.search.get('filter') ?? '{}') as Record<string, unknown>);

describe('robot activity log', { timeout: 30_000 }, () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('renders each entry in words from its code and parameters, with its level, in the building’s zone', async () => {
    mockApi(routes(() => page(entries, 5)));
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const section = await screen.findByTestId('robot-activity-log', {}, slow);
    const table = await within(section).findByTestId('activity-table', {}, slow);
    const texts = () =>
      within(table)
        .getAllByTestId('activity-text')
        .map((el) => el.textContent);
    await waitFor(() =>
      expect(texts()).toEqual([
        'Low battery: 19% (below 20%)',
        'Error reported: Hardware error (robot unavailable)',
        'Yamada Taro gave up the controls (released)',
        'Connection lost without a goodbye',
        'OS updated: 2.3.0 → 2.4.0',
      ]),
    );
    expect(
      within(table)
        .getAllByTestId('activity-level')
        .map((el) => el.textContent),
    ).toEqual(['Alert', 'Critical', 'Info', 'Warning', 'Notice']);
    // The building is in Tokyo: 16:05 UTC is 1:05 the next morning there.
    expect(within(table).getAllByText('Apr 1, 2026, 1:05 AM GMT+9')).toHaveLength(5);
    expect(within(section).getByTestId('time-zone-note')).toHaveTextContent('Asia/Tokyo');
  });

  it('renders the same entries in Japanese', async () => {
    await i18n.changeLanguage('ja');
    mockApi(routes(() => page(entries, 5)));
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const section = await screen.findByTestId('robot-activity-log', {}, slow);
    const table = await within(section).findByTestId('activity-table', {}, slow);
    const texts = () =>
      within(table)
        .getAllByTestId('activity-text')
        .map((el) => el.textContent);
    await waitFor(() =>
      expect(texts()).toEqual([
        'バッテリー残量低下：19%（20%未満）',
        'エラー発生：ハードウェアエラー（ロボット使用不可）',
        'Yamada Taro さんが操作を終了しました（操作権を解放）',
        '接続が途切れました',
        'OSが更新されました：2.3.0 → 2.4.0',
      ]),
    );
    expect(
      within(table)
        .getAllByTestId('activity-level')
        .map((el) => el.textContent),
    ).toEqual(['警報', '重大', '情報', '警告', '通知']);
    expect(within(section).getByRole('heading', { name: 'アクティビティログ' })).toBeInTheDocument();
    expect(within(table).getAllByText(/^2026\/04\/01 0?1:05/)).toHaveLength(5);
  });

  it('sends the level, kind and date filters and the page as the API’s filter, newest first', async () => {
    const { calls } = mockApi(routes(() => page(entries, 45)));
    const app = renderApp('/robot/55', { session: makeSession(2), realtime });
    const section = await screen.findByTestId('robot-activity-log', {}, slow);
    await within(section).findByText('45 entries', {}, slow);
    expect(filters(calls).at(-1)).toEqual({ order: 'at DESC', limit: 20, skip: 0 });

    await app.user.selectOptions(within(section).getByTestId('activity-level-filter'), '3');
    await waitFor(() => expect(filters(calls).at(-1)).toMatchObject({ where: { level: { lte: 3 } } }));
    await app.user.selectOptions(within(section).getByTestId('activity-kind-filter'), 'robotError');
    await waitFor(() =>
      expect(filters(calls).at(-1)).toMatchObject({ where: { and: [{ level: { lte: 3 } }, { kind: 'robotError' }] } }),
    );
    // Days are the building's (Tokyo): 1 April starts at 15:00 UTC the day before.
    await app.user.type(within(section).getByTestId('activity-from'), '2026-04-01');
    await app.user.type(within(section).getByTestId('activity-to'), '2026-04-02');
    await waitFor(() =>
      expect(filters(calls).at(-1)).toMatchObject({
        where: {
          and: [
            { level: { lte: 3 } },
            { kind: 'robotError' },
            { at: { gte: '2026-03-31T15:00:00.000Z' } },
            { at: { lte: '2026-04-02T14:59:59.999Z' } },
          ],
        },
      }),
    );
    expect(app.location()).toContain('activityLevel=3');
    expect(app.location()).toContain('activityKind=robotError');

    await app.user.click(within(section).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(filters(calls).at(-1)).toMatchObject({ skip: 20, limit: 20 }));
    expect(app.location()).toContain('activityPage=2');

    await app.user.click(within(section).getByTestId('activity-clear'));
    await waitFor(() => expect(filters(calls).at(-1)).toEqual({ order: 'at DESC', limit: 20, skip: 0 }));
  });

  it('says when nothing is recorded and when nothing matches the filters', async () => {
    mockApi(routes(() => page([], 0)));
    const app = renderApp('/robot/55', { session: makeSession(2), realtime });
    const section = await screen.findByTestId('robot-activity-log', {}, slow);
    expect(await within(section).findByTestId('activity-empty', {}, slow)).toHaveTextContent(
      'Nothing has been recorded for this robot yet.',
    );
    await app.user.selectOptions(within(section).getByTestId('activity-level-filter'), '0');
    await waitFor(() =>
      expect(within(section).getByTestId('activity-empty')).toHaveTextContent('No entries match these filters.'),
    );
  });

  it('shows an error with a retry when the log cannot be read', async () => {
    mockApi(routes(() => json(500, { error: { statusCode: 500, code: 'INTERNAL', message: 'boom' } })));
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const section = await screen.findByTestId('robot-activity-log', {}, slow);
    expect(await within(section).findByRole('button', { name: /retry/i }, slow)).toBeInTheDocument();
  });
});
