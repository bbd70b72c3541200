import {
  robotActionResultSchema,
  robotFeatureOps,
  robotConsoleSchema,
  robotLogSchema,
  robotSchema,
  type Robot,
  type RobotConsole,
  type RobotLogEntry,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { en } from '@/locales/en';
import { ja } from '@/locales/ja';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type ApiCall, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };
/** Polls run every second on the real clock: give a few of them time. */
const polls = (n: number) => ({ timeout: n * 1000 + 2000 });

const robot: Robot = robotSchema.parse({
  id: 5,
  serialNo: 'UGO-5',
  name: 'Lobby robot',
  model: 'pro',
  version: '3.1',
  hardwareRevision: '2',
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Marunouchi Tower',
  floorId: 2,
  floorName: 'Office',
  groupId: null,
  groupName: null,
  status: 1,
  longTermRecordingAutoStart: false,
  videoMode: 'high',
  notes: '',
  mqttUsername: 'robot-ugo-5',
  manufacturer: 'ugo',
  lastCommunicationAt: '2026-03-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const makeConsole = (over: Partial<RobotConsole> = {}, info: Partial<RobotConsole['info']> = {}): RobotConsole =>
  robotConsoleSchema.parse({
    robotId: 5,
    serialNo: 'UGO-5',
    online: true,
    protocolVersion: '2.0.0',
    state: {
      headerId: 42,
      timestamp: '2026-03-01T00:00:00.000Z',
      orderId: 'order-77',
      batteryState: { batteryCharge: 80, charging: false },
    },
    factsheet: { typeSpecification: { seriesName: 'ugo Pro' }, protocolLimits: { maxStringLens: {} } },
    battery: 80,
    ...over,
    info: {
      recording: 'idle',
      call: 'idle',
      networkInterface: 'wlan0',
      ringLight: null,
      patrolLamp: null,
      periscopeHeight: null,
      gimbal: null,
      speaking: false,
      osVersion: '1.2.0',
      updating: false,
      ...info,
    },
  });

const entry = (seq: number, topic: string, direction: 'in' | 'out', payload: object): RobotLogEntry => ({
  seq,
  at: `2026-03-01T00:00:0${seq % 10}.000Z`,
  direction,
  topic,
  payload: JSON.stringify(payload),
  truncated: false,
});

/** The console's calls; `log` answers each poll (by call number), `current` is what GET console answers now. */
function consoleRoutes(
  opts: { current?: () => RobotConsole; log?: (call: ApiCall, n: number) => RobotLogEntry[] } = {},
): Routes {
  let logCalls = 0;
  let lastSeq = 0;
  return {
    ...signedInRoutes(),
    [on(robotFeatureOps.getRobotBySerial, { serialNo: 'UGO-5' })]: () => reply(robotSchema, robot),
    [on(robotFeatureOps.getRobotConsole)]: () => reply(robotConsoleSchema, (opts.current ?? (() => makeConsole()))()),
    [on(robotFeatureOps.getRobotConsoleLog)]: (call) => {
      const entries = opts.log?.(call, logCalls++) ?? [];
      lastSeq = Math.max(lastSeq, ...entries.map((e) => e.seq));
      return reply(robotLogSchema, { entries, lastSeq });
    },
  };
}

const rows = () => screen.queryAllByTestId('console-log-entry').map((r) => Number(r.getAttribute('data-seq')));

describe('robot console', () => {
  it('sends a general operator to login', async () => {
    const { calls } = mockApi(consoleRoutes());
    const app = renderApp('/console/UGO-5', { session: makeSession(0) });
    await screen.findByTestId('login-form', {}, slow);
    expect(app.location()).toBe(`/auth/login?redirect=${encodeURIComponent('/console/UGO-5')}`);
    expect(calls.some((c) => c.path.startsWith('/api/robots/'))).toBe(false);
  }, 15_000);

  it('shows the robot, its last state as JSON, the factsheet on demand and the message log', async () => {
    mockApi(
      consoleRoutes({
        log: (_call, n) =>
          n === 0
            ? [
                entry(1, 'state', 'in', { headerId: 41, orderId: 'order-77' }),
                entry(2, 'instantActions', 'out', { actions: [{ actionType: 'stateRequest' }] }),
              ]
            : [],
      }),
    );
    const app = renderApp('/console/UGO-5', { session: makeSession(2) });
    expect(await screen.findByTestId('console-robot-name', {}, slow)).toHaveTextContent('Lobby robot');
    expect(screen.getByTestId('console-serial')).toHaveTextContent('UGO-5');
    expect(await screen.findByTestId('console-online')).toHaveTextContent('Online');
    expect(screen.getByTestId('console-protocol')).toHaveTextContent('VDA 5050 2.0.0');
    expect(screen.getByTestId('console-battery')).toHaveTextContent('80%');
    expect(screen.getByTestId('console-os-version')).toHaveTextContent('1.2.0');
    expect(screen.queryByTestId('console-updating')).not.toBeInTheDocument();

    const state = await screen.findByTestId('console-state-json');
    expect(state.textContent).toContain('"orderId": "order-77"');
    expect(state.textContent).toContain('"batteryCharge": 80');

    await app.user.click(screen.getByTestId('console-factsheet-toggle'));
    expect(await screen.findByTestId('console-factsheet-json')).toHaveTextContent('"seriesName": "ugo Pro"');
    expect(screen.getByTestId('console-factsheet-toggle')).toHaveAttribute('aria-expanded', 'true');

    await waitFor(() => expect(rows()).toEqual([1, 2]));
    const [first, second] = screen.getAllByTestId('console-log-entry');
    expect(first).toHaveTextContent('state');
    expect(within(first!).getByText('From robot')).toBeInTheDocument();
    expect(second).toHaveTextContent('instantActions');
    expect(within(second!).getByText('To robot')).toBeInTheDocument();
    // The whole payload, pretty-printed, on demand.
    await app.user.click(within(first!).getByRole('button', { name: 'Show the whole message' }));
    expect(await screen.findByTestId('console-log-payload')).toHaveTextContent('"headerId": 41');

    expect(screen.getByTestId('console-robot-link')).toHaveAttribute('href', '/robot/5');
    expect(screen.getByTestId('console-teleop-link')).toHaveAttribute('href', '/app/tele-ope/drive/UGO-5');
  }, 15_000);

  it('polls the log from the last sequence number and appends what is new', async () => {
    const { calls } = mockApi(
      consoleRoutes({
        log: (_call, n) =>
          n === 0
            ? [entry(1, 'state', 'in', { a: 1 }), entry(2, 'visualization', 'in', { b: 2 })]
            : n === 1
              ? [entry(3, 'order', 'out', { orderId: 'o-1' })]
              : [],
      }),
    );
    renderApp('/console/UGO-5', { session: makeSession(1) });
    await waitFor(() => expect(rows()).toEqual([1, 2]), slow);
    await waitFor(() => expect(rows()).toEqual([1, 2, 3]), polls(2));
    const logCalls = calls.filter((c) => c.path === '/api/robots/5/console/log');
    expect(logCalls[0]!.search.has('after')).toBe(false);
    expect(logCalls[1]!.search.get('after')).toBe('2');
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/api/robots/5/console/log').length).toBeGreaterThan(2),
      polls(2),
    );
    const third = calls.filter((c) => c.path === '/api/robots/5/console/log')[2]!;
    expect(third.search.get('after')).toBe('3');
    expect(screen.getByTestId('console-log-count')).toHaveTextContent('3 of 3 messages');
  }, 15_000);

  it('filters the log by topic and direction, and clears it', async () => {
    mockApi(
      consoleRoutes({
        log: (_call, n) =>
          n === 0
            ? [
                entry(1, 'state', 'in', { a: 1 }),
                entry(2, 'visualization', 'in', { b: 2 }),
                entry(3, 'order', 'out', { orderId: 'o-1' }),
                entry(4, 'state', 'in', { a: 2 }),
              ]
            : [],
      }),
    );
    const app = renderApp('/console/UGO-5', { session: makeSession(9) });
    await waitFor(() => expect(rows()).toEqual([1, 2, 3, 4]), slow);
    expect(screen.getByRole('checkbox', { name: 'visualization (1)' })).not.toBeChecked();

    await app.user.click(screen.getByRole('checkbox', { name: 'state (2)' }));
    expect(rows()).toEqual([1, 4]);
    await app.user.click(screen.getByRole('checkbox', { name: 'order (1)' }));
    expect(rows()).toEqual([1, 3, 4]);
    await app.user.click(screen.getByRole('radio', { name: 'To robot' }));
    expect(rows()).toEqual([3]);
    await app.user.click(screen.getByTestId('console-log-all-topics'));
    await app.user.click(screen.getByRole('radio', { name: 'Both' }));
    await app.user.type(screen.getByTestId('console-log-search'), 'o-1');
    expect(rows()).toEqual([3]);
    await app.user.clear(screen.getByTestId('console-log-search'));
    expect(rows()).toEqual([1, 2, 3, 4]);

    expect(screen.getByTestId('console-log-follow')).toHaveTextContent('Pause auto-scroll');
    await app.user.click(screen.getByTestId('console-log-follow'));
    expect(screen.getByTestId('console-log-follow')).toHaveTextContent('Resume auto-scroll');

    await app.user.click(screen.getByTestId('console-log-clear'));
    expect(rows()).toEqual([]);
    expect(screen.getByTestId('console-log-empty')).toHaveTextContent('No messages yet');
  }, 15_000);

  it('sends an instant action with its body and tells the outcome', async () => {
    const { calls } = mockApi({
      ...consoleRoutes(),
      [on(robotFeatureOps.sendRobotConsoleAction)]: (call) =>
        (call.body as { action: string }).action === 'cancelOrder'
          ? replyError('ROBOT_OFFLINE')
          : reply(robotActionResultSchema, { actionId: 'a-1' }, 202),
    });
    const app = renderApp('/console/UGO-5', { session: makeSession(2) });
    await screen.findByTestId('console-online', {}, slow);

    await app.user.click(screen.getByTestId('console-action-stateRequest'));
    expect(await screen.findByText('"Request state" was sent to Lobby robot.')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST' && c.path === '/api/robots/5/console/actions');
    expect(posts.map((c) => c.body)).toEqual([{ action: 'stateRequest' }]);

    await app.user.click(screen.getByTestId('console-action-cancelOrder'));
    expect(
      await screen.findByText(
        '"Cancel order" could not be sent: The robot is offline. Try again when it is connected.',
      ),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { action: 'stateRequest' },
      { action: 'cancelOrder' },
    ]);
  }, 15_000);

  it('disables instant actions and the OS update while the robot is offline, and the update on low battery', async () => {
    let current = makeConsole({ online: false });
    mockApi(consoleRoutes({ current: () => current }));
    renderApp('/console/UGO-5', { session: makeSession(2) });
    expect(await screen.findByTestId('console-online', {}, slow)).toHaveTextContent('Offline');
    expect(screen.getByTestId('console-action-startPause')).toBeDisabled();
    expect(screen.getByTestId('console-actions-offline')).toBeInTheDocument();
    expect(screen.getByTestId('console-os-update')).toBeDisabled();
    expect(screen.getByTestId('console-os-update-blocked')).toHaveTextContent('The robot is offline');

    current = makeConsole({ battery: 12.7 });
    await waitFor(() => expect(screen.getByTestId('console-online')).toHaveTextContent('Online'), polls(2));
    expect(screen.getByTestId('console-action-startPause')).toBeEnabled();
    expect(screen.getByTestId('console-os-update')).toBeDisabled();
    expect(screen.getByTestId('console-os-update-blocked')).toHaveTextContent(
      'Battery is 12%: it must be at least 20% for the OS update.',
    );
  }, 15_000);

  it('shows the server refusing the OS update for low battery in the user language', async () => {
    const { calls } = mockApi({
      ...consoleRoutes({ current: () => makeConsole({ battery: 21 }) }),
      [on(robotFeatureOps.startRobotOsUpdate)]: () => replyError('OS_UPDATE_LOW_BATTERY'),
    });
    const app = renderApp('/console/UGO-5', { session: makeSession(2) });
    await screen.findByTestId('console-online', {}, slow);
    await app.user.click(screen.getByTestId('console-os-update'));
    expect(await screen.findByText(/restarts\. It stops what it is doing and is offline/)).toBeInTheDocument();
    await app.user.click(screen.getByTestId('console-os-update-confirm'));
    expect(await screen.findByTestId('console-os-update-error')).toHaveTextContent(
      'Battery must be at least 20% for OS update.',
    );
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/robots/5/os-update');
    expect(post?.body).toEqual({});
    expect(screen.queryByTestId('console-os-update-progress')).not.toBeInTheDocument();
  }, 15_000);

  it('follows an OS update through the restart to the new version', async () => {
    let current = makeConsole();
    mockApi({
      ...consoleRoutes({ current: () => current }),
      [on(robotFeatureOps.startRobotOsUpdate)]: () => {
        current = makeConsole({}, { updating: true });
        return reply(robotActionResultSchema, { actionId: 'os-1' }, 202);
      },
    });
    const app = renderApp('/console/UGO-5', { session: makeSession(2) });
    await screen.findByTestId('console-online', {}, slow);
    await app.user.click(screen.getByTestId('console-os-update'));
    await app.user.click(await screen.findByTestId('console-os-update-confirm'));

    const progress = await screen.findByTestId('console-os-update-progress');
    await waitFor(() => expect(progress).toHaveTextContent('Updating…'), polls(1));
    expect(screen.getByTestId('console-updating')).toBeInTheDocument();
    expect(screen.getByTestId('console-os-update')).toBeDisabled();

    current = makeConsole({ online: false }, { updating: true });
    await waitFor(() => expect(progress).toHaveTextContent('Offline (restarting)…'), polls(2));

    current = makeConsole({}, { osVersion: '1.3.0' });
    await waitFor(
      () =>
        expect(screen.getByTestId('console-os-update-progress')).toHaveTextContent(
          'Back online, version 1.3.0 (was 1.2.0)',
        ),
      polls(2),
    );
    expect(screen.queryByTestId('console-updating')).not.toBeInTheDocument();
    expect(screen.getByTestId('console-os-version')).toHaveTextContent('1.3.0');
    await app.user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('console-os-update-progress')).not.toBeInTheDocument();
  }, 20_000);

  it('says so when no robot has the serial number', async () => {
    mockApi({ ...signedInRoutes(), [on(robotFeatureOps.getRobotBySerial)]: () => replyError('NOT_FOUND') });
    renderApp('/console/NOPE', { session: makeSession(2) });
    expect(await screen.findByTestId('console-not-found', {}, slow)).toHaveTextContent(
      'No robot with serial number NOPE is registered',
    );
  }, 15_000);

  it('speaks Japanese to a Japanese operator, the server refusal included', async () => {
    initI18n('ja', { en, ja });
    mockApi({
      ...consoleRoutes({ current: () => makeConsole({ battery: 21 }) }),
      [on(robotFeatureOps.startRobotOsUpdate)]: () => replyError('OS_UPDATE_LOW_BATTERY'),
    });
    const app = renderApp('/console/UGO-5', { session: makeSession(2) });
    expect(await screen.findByTestId('console-online', {}, slow)).toHaveTextContent('オンライン');
    await app.user.click(screen.getByTestId('console-os-update'));
    expect(await screen.findByText('Lobby robot のOSをアップデートしますか？')).toBeInTheDocument();
    await app.user.click(screen.getByTestId('console-os-update-confirm'));
    expect(await screen.findByTestId('console-os-update-error')).toHaveTextContent(
      'OSアップデートにはバッテリー残量20%以上が必要です。',
    );
  }, 15_000);
});
