import {
  createdRobotSchema,
  fleetRobotSchema,
  groupOpsByKind,
  groupSchema,
  robotOps,
  robotSchema,
  type FleetRobot,
  type Robot,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type Routes } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };

const fleetRobot = (id: number, over: Partial<FleetRobot> = {}, live: Partial<FleetRobot['live']> = {}): FleetRobot =>
  fleetRobotSchema.parse({
    id,
    serialNo: `UGO-${id}`,
    name: `Robot ${id}`,
    model: 'pro',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    groupId: null,
    groupName: null,
    status: 1,
    ...over,
    live: {
      robotId: id,
      online: true,
      everSeen: true,
      statusLabel: 'available',
      battery: 80,
      batteryState: 'active',
      activity: 'idle',
      orderId: null,
      floorId: 2,
      position: null,
      issues: [],
      lastCommunicationAt: new Date().toISOString(),
      protocolVersion: '2.0.0',
      ...live,
    },
  });

const fleet = [
  fleetRobot(1, { name: 'Alpha', model: 'pro', groupId: 3, groupName: 'Lobby' }),
  fleetRobot(2, { name: 'Bravo', model: 'mini' }, { online: false, statusLabel: 'offline', battery: 15 }),
  fleetRobot(
    3,
    { name: 'Charlie', model: 'ex' },
    { statusLabel: 'repair', issues: [{ code: 'hardwareError', level: 'FATAL', description: null }] },
  ),
  fleetRobot(4, { name: 'Delta', model: 'pro', serialNo: 'ZX-900' }),
];

const cardIds = () =>
  screen
    .queryAllByTestId(/^robot-card-/)
    .map((el) => el.getAttribute('data-testid')!.slice('robot-card-'.length))
    .sort();

/** The tab's live updates, played by the test. */
let realtime: FakeRealtime;
beforeEach(() => {
  realtime = new FakeRealtime();
});

describe('robot control', () => {
  const routes = (extra: Routes = {}): Routes => ({
    ...signedInRoutes(),
    [on(robotOps.listFleet)]: () => reply(z.array(fleetRobotSchema), fleet),
    ...extra,
  });

  it('narrows the fleet with filters and search, in the URL', async () => {
    mockApi(routes());
    const app = renderApp('/robot/control', { session: makeSession(0), realtime });
    await waitFor(() => expect(cardIds()).toEqual(['UGO-1', 'UGO-2', 'UGO-3', 'ZX-900']), slow);
    const alpha = screen.getByTestId('robot-card-UGO-1');
    expect(within(alpha).getByTestId('robot-status')).toHaveTextContent('Available');
    expect(within(alpha).getByText('2F Office', { exact: false })).toBeInTheDocument();
    const charlie = screen.getByTestId('robot-card-UGO-3');
    expect(within(charlie).getByTestId('robot-issues')).toHaveTextContent('Hardware error (robot unavailable)');
    expect(within(screen.getByTestId('robot-card-UGO-2')).getByTestId('robot-battery')).toHaveTextContent(
      'Low battery',
    );

    await app.user.selectOptions(screen.getByTestId('robot-model-filter'), 'pro');
    expect(cardIds()).toEqual(['UGO-1', 'ZX-900']);
    await app.user.type(screen.getByTestId('robot-search'), 'zx-9');
    await waitFor(() => expect(cardIds()).toEqual(['ZX-900']));
    expect(app.location()).toContain('model=pro');

    await app.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cardIds()).toHaveLength(4));
    await app.user.click(screen.getByTestId('robot-online-only'));
    expect(cardIds()).toEqual(['UGO-1', 'UGO-3', 'ZX-900']);
    await app.user.click(screen.getByTestId('robot-available-only'));
    expect(cardIds()).toEqual(['UGO-1', 'ZX-900']);
    await app.user.selectOptions(screen.getByTestId('robot-group-filter'), '3');
    expect(cardIds()).toEqual(['UGO-1']);
  }, 20_000);

  it('updates a card live from the WebSocket', async () => {
    mockApi(routes());
    renderApp('/robot/control', { session: makeSession(0), realtime });
    await waitFor(() => expect(realtime.subscribed('fleet:all')).toBe(true));
    realtime.snapshot('fleet:all', fleet);
    const card = await screen.findByTestId('robot-card-UGO-1', {}, slow);
    expect(within(card).getByTestId('robot-battery')).toHaveTextContent('80%');
    expect(within(card).getByTestId('robot-operate')).toHaveAttribute('href', '/app/tele-ope/drive/UGO-1');

    realtime.live({
      ...fleet[0]!.live,
      battery: 9,
      activity: 'emergencyStop',
      statusLabel: 'unavailable',
      issues: [{ code: 'emergencyStop', level: 'FATAL', description: null }],
    });
    const updated = screen.getByTestId('robot-card-UGO-1');
    expect(within(updated).getByTestId('robot-battery')).toHaveTextContent('9%');
    expect(within(updated).getByTestId('robot-battery')).toHaveTextContent('Low battery');
    expect(within(updated).getByTestId('robot-status')).toHaveTextContent('Unavailable');
    expect(within(updated).getByTestId('robot-issues')).toHaveTextContent('Emergency stop button pressed');
    expect(within(updated).getByTestId('robot-activity')).toHaveTextContent('Emergency stop');
  }, 20_000);
});

const savedRobot = (over: Partial<Robot> = {}): Robot =>
  robotSchema.parse({
    id: 55,
    serialNo: 'UGO-NEW',
    name: 'Lobby guide',
    model: 'mini',
    version: '',
    hardwareRevision: '',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    floorId: 1,
    floorName: 'Entrance',
    groupId: null,
    groupName: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'high',
    notes: '',
    mqttUsername: 'robot-UGO-NEW',
    manufacturer: 'ugo',
    lastCommunicationAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

describe('robot registration', () => {
  const formRoutes = (extra: Routes = {}): Routes => ({
    ...signedInRoutes(),
    [on(groupOpsByKind['robot-group'].list)]: () => reply(z.array(groupSchema), []),
    [on(robotOps.getRobot)]: () => reply(robotSchema, savedRobot()),
    ...extra,
  });

  it('shows the contract validation messages, then the server duplicate under the serial', async () => {
    mockApi(
      formRoutes({ [on(robotOps.createRobot)]: () => replyError('DUPLICATE', [{ path: 'serialNo', message: 'dup' }]) }),
    );
    const app = renderApp('/robot/create', { session: makeSession(2), realtime });
    const form = await screen.findByTestId('robot-form', {}, slow);
    await app.user.type(within(form).getByTestId('robot-serial'), 'bad serial!');
    await app.user.type(within(form).getByTestId('robot-hardware-revision'), '12a');
    await app.user.click(screen.getByTestId('robot-save'));
    expect(await screen.findByText('Use letters, digits, "-", "_" and "." only')).toBeInTheDocument();
    expect(screen.getByText('Enter up to 3 digits')).toBeInTheDocument();
    expect(screen.getAllByText('Required').length).toBeGreaterThanOrEqual(3); // name, model, floor

    await app.user.clear(within(form).getByTestId('robot-serial'));
    await app.user.type(within(form).getByTestId('robot-serial'), 'UGO-NEW');
    await app.user.clear(within(form).getByTestId('robot-hardware-revision'));
    await app.user.type(within(form).getByTestId('robot-name'), 'Lobby guide');
    await app.user.selectOptions(within(form).getByTestId('robot-model'), 'mini');
    await waitFor(() => expect(within(form).getByTestId('robot-floor')).toHaveTextContent('1F Entrance'));
    await app.user.selectOptions(within(form).getByTestId('robot-floor'), '1');
    await app.user.click(screen.getByTestId('robot-save'));
    expect(await screen.findByText('A robot with this serial number is already registered.')).toBeInTheDocument();
  }, 30_000);

  it('registers a robot and shows its credentials once', async () => {
    const created = createdRobotSchema.parse({
      robot: savedRobot(),
      credentials: {
        mqttUrl: 'mqtt://portal.example:1883',
        username: 'robot-UGO-NEW',
        password: 'S3cret-once-only',
        manufacturer: 'ugo',
        serialNumber: 'UGO-NEW',
        interfaceName: 'uagv',
      },
    });
    const { calls } = mockApi(
      formRoutes({ [on(robotOps.createRobot)]: () => reply(createdRobotSchema, created, 201) }),
    );
    const app = renderApp('/robot/create?serial=UGO-NEW', { session: makeSession(9), realtime });
    const form = await screen.findByTestId('robot-form', {}, slow);
    expect(within(form).getByTestId('robot-serial')).toHaveValue('UGO-NEW');
    await app.user.type(within(form).getByTestId('robot-name'), 'Lobby guide');
    await app.user.selectOptions(within(form).getByTestId('robot-model'), 'mini');
    await waitFor(() => expect(within(form).getByTestId('robot-floor')).toHaveTextContent('1F Entrance'));
    await app.user.selectOptions(within(form).getByTestId('robot-floor'), '1');
    await app.user.selectOptions(within(form).getByTestId('robot-video-mode'), 'low');
    await app.user.click(screen.getByTestId('robot-save'));

    expect(await screen.findByTestId('credential-password', {}, slow)).toHaveTextContent('S3cret-once-only');
    expect(screen.getByTestId('credentials-warning')).toHaveTextContent('cannot be displayed again');
    const body = calls.find((c) => c.method === 'POST' && c.path === '/api/robots')?.body;
    expect(body).toMatchObject({
      serialNo: 'UGO-NEW',
      name: 'Lobby guide',
      model: 'mini',
      buildingId: 10,
      floorId: 1,
      groupId: null,
      status: 1,
      videoMode: 'low',
    });

    await app.user.click(screen.getByTestId('credentials-done'));
    await waitFor(() => expect(app.location()).toBe('/robot/55'), slow);
    expect(await screen.findByTestId('robot-title', {}, slow)).toHaveTextContent('Lobby guide');
    expect(screen.getByTestId('robot-operate')).toHaveAttribute('href', '/app/tele-ope/drive/UGO-NEW');
    expect(screen.getByTestId('robot-watch')).toHaveAttribute('href', '/app/tele-ope/watch/UGO-NEW');
    expect(screen.getByTestId('robot-console')).toHaveAttribute('href', '/console/UGO-NEW');
    await waitFor(() => expect(screen.queryByTestId('credential-password')).toBeNull());
    expect(screen.queryByText('S3cret-once-only')).toBeNull();
  }, 30_000);

  it('registers another maker’s robot: its manufacturer and its own model name', async () => {
    const created = createdRobotSchema.parse({
      robot: { ...savedRobot(), model: 'MiR250', manufacturer: 'acme' },
      credentials: {
        mqttUrl: 'mqtt://portal.example:1883',
        username: 'robot-UGO-NEW',
        password: 'S3cret-once-only',
        manufacturer: 'acme',
        serialNumber: 'UGO-NEW',
        interfaceName: 'uagv',
      },
    });
    const { calls } = mockApi(
      formRoutes({ [on(robotOps.createRobot)]: () => reply(createdRobotSchema, created, 201) }),
    );
    const app = renderApp('/robot/create?serial=UGO-NEW', { session: makeSession(9), realtime });
    const form = await screen.findByTestId('robot-form', {}, slow);
    expect(within(form).getByTestId('robot-manufacturer')).toHaveValue('ugo');
    await app.user.type(within(form).getByTestId('robot-name'), 'Cart');
    await app.user.selectOptions(within(form).getByTestId('robot-model'), '__other');
    await app.user.click(screen.getByTestId('robot-save'));
    // "Other model" without a name: the name is required.
    await waitFor(() => expect(within(form).getByTestId('robot-model-other')).toHaveAttribute('aria-invalid', 'true'));
    await app.user.type(within(form).getByTestId('robot-model-other'), 'MiR250');
    await app.user.clear(within(form).getByTestId('robot-manufacturer'));
    await app.user.type(within(form).getByTestId('robot-manufacturer'), 'acme');
    await waitFor(() => expect(within(form).getByTestId('robot-floor')).toHaveTextContent('1F Entrance'));
    await app.user.selectOptions(within(form).getByTestId('robot-floor'), '1');
    await app.user.click(screen.getByTestId('robot-save'));
    expect(await screen.findByTestId('credential-password', {}, slow)).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'POST' && c.path === '/api/robots')?.body;
    expect(body).toMatchObject({ serialNo: 'UGO-NEW', name: 'Cart', model: 'MiR250', manufacturer: 'acme' });
  }, 30_000);

  it('a stale edit opens the conflict dialog; kept values are saved again over the newer version', async () => {
    let stored = savedRobot();
    let saves = 0;
    const { calls } = mockApi(
      formRoutes({
        [on(robotOps.getRobot)]: () => reply(robotSchema, stored),
        [on(robotOps.updateRobot)]: (call) => {
          saves += 1;
          if (saves === 1) return replyError('STALE_UPDATE');
          stored = savedRobot({ ...(call.body as object), updatedAt: '2026-01-03T00:00:00.000Z' });
          return reply(robotSchema, stored);
        },
      }),
    );
    const app = renderApp('/robot/55', { session: makeSession(9), realtime });
    const form = await screen.findByTestId('robot-form', {}, slow);
    await waitFor(() => expect(within(form).getByTestId('robot-floor')).toHaveValue('1'));
    await app.user.clear(within(form).getByTestId('robot-name'));
    await app.user.type(within(form).getByTestId('robot-name'), 'Mine');
    stored = savedRobot({ name: 'Theirs', updatedAt: '2026-01-02T00:00:00.000Z' });
    await app.user.click(screen.getByTestId('robot-save'));
    await app.user.click(await screen.findByTestId('conflict-keep', {}, slow));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).toBeNull());
    expect(within(form).getByTestId('robot-name')).toHaveValue('Mine');
    await app.user.click(screen.getByTestId('robot-save'));
    await waitFor(() => expect(saves).toBe(2));
    const sent = calls.filter((c) => c.method === 'PUT').map((c) => (c.body as { updatedAt: string }).updatedAt);
    expect(sent).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z']);
    expect(await screen.findByTestId('robot-title', {}, slow)).toHaveTextContent('Mine');
  }, 30_000);
});
