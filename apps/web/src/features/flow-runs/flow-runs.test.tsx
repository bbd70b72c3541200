import {
  floorDetailSchema,
  floorOps,
  buildingOps,
  buildingSchema,
  flowOps,
  flowRunDetailSchema,
  flowRunOps,
  flowRunSchema,
  floorMapSchema,
  flowSchema,
  fleetRobotSchema,
  groupOpsByKind,
  groupSchema,
  mapOps,
  robotOps,
  robotTopic,
  robotSchema,
  type FleetRobot,
  type Flow,
  type FlowRun,
  type FlowRunDetail,
  type FlowRunStep,
  type Robot,
} from '@portal/contract';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppProvider } from '@/app/provider';
import { flowsEn } from '@/locales/en/flows';
import { flowsJa } from '@/locales/ja/flows';
import { FakeRealtime } from '@/testing/fake-realtime';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type ApiCall, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { runPollInterval } from './api';
import { RunningFlowLine } from './components/running-flow';

/**
 * Flow runs on screen (issue 13): "Run on robot" from the flow editor with its refusals in words, the
 * robot page's flow section with the run's progress, its controls and its polling, in en and ja.
 */
const slow = { timeout: 10_000 };
const T0 = '2026-03-31T01:00:00.000Z';

const flow: Flow = flowSchema.parse({
  id: 3,
  organizationId: 1,
  buildingId: 10,
  floorId: 1,
  flowGroupId: null,
  name: 'Night patrol',
  description: '',
  displayOrder: 1,
  enabled: true,
  definition: {
    version: 1,
    steps: [
      { kind: 'moveToWaypoint', id: 'go-lobby', waypointId: 1 },
      {
        kind: 'loop',
        id: 'rounds',
        count: 2,
        steps: [{ kind: 'takePhoto', id: 'photo', camera: 'v1', resolution: '4k', saveAsTaskImage: false }],
      },
      { kind: 'returnToCharger', id: 'home' },
    ],
  },
  createdAt: T0,
  updatedAt: T0,
});

const robot = (id: number, name: string): Robot =>
  robotSchema.parse({
    id,
    serialNo: `UGO-${id}`,
    name,
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
    mqttUsername: `robot-UGO-${id}`,
    manufacturer: 'ugo',
    lastCommunicationAt: null,
    createdAt: T0,
    updatedAt: T0,
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
  createdAt: T0,
  updatedAt: T0,
});

const run = (over: Partial<FlowRun> = {}): FlowRun =>
  flowRunSchema.parse({
    id: 7,
    flowId: 3,
    flowName: 'Night patrol',
    robotId: 55,
    robotName: 'Lobby guide',
    organizationId: 1,
    buildingId: 10,
    floorId: 1,
    status: 'running',
    startedAt: T0,
    endedAt: null,
    startedBy: 2,
    currentStepId: 'photo',
    currentStepKind: 'takePhoto',
    stepsStarted: 3,
    errorCode: null,
    message: null,
    ...over,
  });

const step = (seq: number, stepId: string, kind: string, over: Partial<FlowRunStep> = {}): FlowRunStep => ({
  id: 100 + seq,
  seq,
  stepId,
  kind,
  pass: '',
  attempt: 1,
  result: 'done',
  startedAt: T0,
  endedAt: T0,
  errorCode: null,
  message: null,
  data: {},
  ...over,
});

const detail = (over: Partial<FlowRun> = {}, steps?: FlowRunStep[]): FlowRunDetail =>
  flowRunDetailSchema.parse({
    ...run(over),
    steps: steps ?? [
      step(1, 'go-lobby', 'moveToWaypoint'),
      step(2, 'photo', 'takePhoto', { pass: '1', result: 'fail', errorCode: 'F0006', attempt: 1 }),
      step(3, 'photo', 'takePhoto', { pass: '1', result: 'running', attempt: 2, endedAt: null }),
    ],
    definition: flow.definition,
  });

const runs = (items: FlowRun[]) => {
  const r = reply(z.array(flowRunSchema), items);
  r.headers.set('X-Total-Count', String(items.length));
  return r;
};

/** The robot page's routes; the active-run lookup (status filter) answers `active`, the recent list `recent`. */
const robotRoutes = (active: () => FlowRun[], recent: FlowRun[], extra: Routes = {}): Routes => ({
  ...signedInRoutes(),
  [on(groupOpsByKind['robot-group'].list)]: () => reply(z.array(groupSchema), []),
  [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building),
  [on(robotOps.getRobot)]: () => reply(robotSchema, robot(55, 'Lobby guide')),
  [on(flowRunOps.listFlowRuns)]: (call: ApiCall) => {
    const filter = JSON.parse(call.search.get('filter') ?? '{}') as { limit?: number };
    return runs(filter.limit === 1 ? active() : recent);
  },
  ...extra,
});

const fleetRobot = (id: number, name: string, position: FleetRobot['live']['position'] = null): FleetRobot =>
  fleetRobotSchema.parse({
    id,
    serialNo: `UGO-${id}`,
    name,
    model: 'mini',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Tokyo Office',
    groupId: null,
    groupName: null,
    status: 1,
    live: {
      robotId: id,
      online: true,
      everSeen: true,
      statusLabel: 'available',
      battery: 80,
      batteryState: 'active',
      activity: 'driving',
      orderId: null,
      floorId: 1,
      position,
      issues: [],
      lastCommunicationAt: T0,
      protocolVersion: '2.0.0',
    },
  });

const detailCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/flow-runs/7');

let realtime: FakeRealtime;
beforeEach(() => {
  realtime = new FakeRealtime();
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('run on robot from the flow editor', { timeout: 30_000 }, () => {
  const editorRoutes = (start: (call: ApiCall) => Response): Routes => ({
    ...signedInRoutes(),
    [on(flowOps.getFlow)]: () => reply(flowSchema, flow),
    [on(robotOps.listRobots)]: () => reply(z.array(robotSchema), [robot(55, 'Lobby guide'), robot(56, 'Stairs')]),
    [on(flowRunOps.startFlowRun)]: start,
  });

  const startOn = async (app: ReturnType<typeof renderApp>, robotName: string) => {
    await app.user.click(await screen.findByRole('button', { name: 'Run on robot' }, slow));
    const dialog = await screen.findByRole('dialog');
    const choice = within(dialog).getByTestId('flow-run-choice');
    await waitFor(() => expect(choice).toBeEnabled());
    await app.user.selectOptions(choice, robotName);
    await app.user.click(within(dialog).getByRole('button', { name: 'Start' }));
    return dialog;
  };

  it('offers the robots of the flow’s building and shows "flow already running" when refused', async () => {
    const { calls } = mockApi(editorRoutes(() => replyError('FLOW_ALREADY_RUNNING')));
    const app = renderApp('/flow/3', { session: makeSession(2), realtime });
    const dialog = await startOn(app, 'Stairs');
    expect(await within(dialog).findByTestId('flow-run-refused')).toHaveTextContent(
      'Flow already running: this robot is carrying out another flow.',
    );
    const start = calls.find((c) => c.method === 'POST' && c.path === '/api/flows/3/runs');
    expect(start?.body).toEqual({ robotId: 56 });
    const list = calls.find((c) => c.path === '/api/robots');
    expect(JSON.parse(list?.search.get('filter') ?? '{}')).toMatchObject({ where: { buildingId: 10 } });
  });

  it('lists the health check’s problems in words', async () => {
    mockApi(
      editorRoutes(() =>
        replyError('HEALTH_CHECK_FAILED', [
          { path: 'robot', message: 'healthProblem.emergencyStop', code: 'emergencyStop' },
          { path: 'robot', message: 'healthProblem.lowBattery', code: 'lowBattery' },
          { path: 'robot', message: 'healthProblem.wrongFloor', code: 'wrongFloor' },
        ]),
      ),
    );
    const app = renderApp('/flow/3', { session: makeSession(2), realtime });
    const dialog = await startOn(app, 'Lobby guide');
    const problems = await within(dialog).findByTestId('flow-run-health-problems');
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'The emergency stop button is pressed',
      'The battery is below 20%',
      "The robot is not on the flow's floor",
    ]);
    expect(within(dialog).getByTestId('flow-run-refused')).toHaveTextContent(
      'The health check before the flow failed, so it did not start:',
    );
  });

  it('shows the started run’s progress in the dialog', async () => {
    const { calls } = mockApi({
      ...editorRoutes(() =>
        reply(flowRunSchema, run({ currentStepId: 'go-lobby', currentStepKind: 'moveToWaypoint' }), 201),
      ),
      [on(flowRunOps.getFlowRun)]: () =>
        reply(flowRunDetailSchema, detail({ currentStepId: 'go-lobby', currentStepKind: 'moveToWaypoint' }, [])),
    });
    const app = renderApp('/flow/3', { session: makeSession(2), realtime });
    const dialog = await startOn(app, 'Lobby guide');
    const panel = await within(dialog).findByTestId('flow-run-panel', {}, slow);
    expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('Running');
    expect(within(panel).getByTestId('flow-run-current-step')).toHaveTextContent('Move to waypoint (go-lobby)');
    expect(detailCalls(calls).length).toBeGreaterThan(0);
  });
});

describe('the robot page’s flow section', { timeout: 30_000 }, () => {
  it('shows the active run: current step highlighted, step marks, the record with error codes in words', async () => {
    mockApi({
      ...robotRoutes(() => [run()], [run(), run({ id: 6, status: 'done', endedAt: T0, currentStepId: null })]),
      [on(flowRunOps.getFlowRun)]: () => reply(flowRunDetailSchema, detail()),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const panel = await screen.findByTestId('flow-run-panel', {}, slow);
    expect(within(panel).getByTestId('flow-run-flow-name')).toHaveTextContent('Night patrol');
    expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('Running');
    expect(within(panel).getByTestId('flow-run-current-step')).toHaveTextContent('Take photo (photo)');

    const steps = within(panel).getByTestId('flow-run-steps');
    const current = within(steps).getByTestId('flow-run-step-photo');
    expect(current).toHaveAttribute('aria-current', 'step');
    expect(
      within(steps)
        .getAllByRole('listitem')
        .filter((li) => li.getAttribute('aria-current')),
    ).toHaveLength(1);
    expect(within(steps).getByTestId('flow-run-step-go-lobby')).toHaveAttribute('data-result', 'done');
    expect(within(steps).getByTestId('flow-run-step-home')).toHaveAttribute('data-result', 'none');
    expect(within(steps).getByTestId('flow-run-step-rounds')).toHaveTextContent('Loop × 2');

    const record = within(panel).getByTestId('flow-run-record');
    const rows = within(record).getAllByRole('row').slice(1);
    // Newest first: the retry, then the failed attempt with its code in words.
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[1]).toHaveTextContent('F0006 Camera settings not applied');
    expect(rows[1]).toHaveTextContent('Pass 1');

    const recent = await screen.findByTestId('flow-runs-table', {}, slow);
    expect(within(recent).getByTestId('flow-run-row-6')).toHaveTextContent('Done');
  });

  it('shows a run whose library command was expanded (a loop of prefixed step ids) with its current step', async () => {
    const inner = 'library-command-step-with-a-long-generated-id-speak';
    const expanded = {
      version: 1,
      steps: [
        { kind: 'loop', id: 'cmd', count: 1, steps: [{ kind: 'speak', id: inner, text: 'Hello', language: 'en' }] },
      ],
    };
    mockApi({
      ...robotRoutes(() => [run()], []),
      [on(flowRunOps.getFlowRun)]: () =>
        reply(flowRunDetailSchema, {
          ...detail({ currentStepId: inner, currentStepKind: 'speak' }, []),
          definition: expanded,
        }),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const panel = await screen.findByTestId('flow-run-panel', {}, slow);
    expect(within(panel).getByTestId(`flow-run-step-${inner}`)).toHaveAttribute('aria-current', 'step');
    expect(within(panel).getByTestId('flow-run-current-step')).toHaveTextContent(`Speak (${inner})`);
  });

  it('words a failed elevator ride: its code and the phase it got to, and the run’s error', async () => {
    const ride = step(1, 'up', 'moveToFloor', {
      result: 'fail',
      errorCode: 'A0004',
      message: 'car full',
      data: { floorId: 2, waypointId: 9, phase: 'boarding' },
    });
    mockApi({
      ...robotRoutes(
        () => [],
        [run({ id: 9, status: 'fail', endedAt: T0, currentStepId: null, errorCode: 'RUN_OFFLINE' })],
      ),
      [on(flowRunOps.getFlowRun)]: () =>
        reply(flowRunDetailSchema, {
          ...detail(
            {
              id: 9,
              status: 'fail',
              endedAt: T0,
              currentStepId: null,
              currentStepKind: null,
              errorCode: 'RUN_OFFLINE',
            },
            [ride],
          ),
        }),
    });
    const app = renderApp('/robot/55', { session: makeSession(2), realtime });
    const recent = await screen.findByTestId('flow-runs-table', {}, slow);
    await app.user.click(within(recent).getByRole('button', { name: 'Open: Night patrol' }));
    const panel = await screen.findByTestId('flow-run-panel', {}, slow);
    expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('Failed');
    expect(within(panel).getByTestId('flow-run-error')).toHaveTextContent('The robot went offline');
    const row = within(panel).getByTestId('flow-run-record-1');
    expect(row).toHaveTextContent('Move to floor (elevator)');
    expect(row).toHaveTextContent('Boarding');
    expect(row).toHaveTextContent('A0004 The elevator car was full · car full');
  });

  it('draws the floor map with the flow’s targets, the current one highlighted, and the robot’s live position', async () => {
    const map = floorMapSchema.parse({
      floorId: 1,
      buildingId: 10,
      revision: 1,
      savedAt: null,
      savedBy: null,
      image: null,
      document: {
        waypoints: [
          { id: 1, name: 'Lobby', x: 0, y: 0, theta: 0, type: 1 },
          { id: 2, name: 'Dock', x: 10, y: 5, theta: 0, type: 2 },
        ],
        edges: [{ id: 1, from: 1, to: 2, oneWay: false, speed: 'normal', path: null }],
        routes: [],
        noGoAreas: [],
        partialMaps: [],
      },
    });
    mockApi({
      ...robotRoutes(() => [run()], []),
      [on(flowRunOps.getFlowRun)]: () =>
        reply(flowRunDetailSchema, detail({ currentStepId: 'home', currentStepKind: 'returnToCharger' })),
      [on(mapOps.getFloorMap, { id: 1 })]: () => reply(floorMapSchema, map),
      [on(floorOps.getFloor, { id: 1 })]: () =>
        reply(
          floorDetailSchema,
          floorDetailSchema.parse({
            id: 1,
            name: '3F East',
            buildingId: 10,
            organizationId: 1,
            type: 'office',
            index: 3,
            img: null,
            imgWidth: null,
            imgHeight: null,
            ugomap: null,
            resolution: null,
            originX: null,
            originY: null,
            createdAt: '2026-01-05T09:00:00.000Z',
            updatedAt: '2026-01-05T09:00:00.000Z',
          }),
        ),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const mapBox = await screen.findByTestId('flow-run-map', {}, slow);
    // The map names the floor it shows (the robot's floor: it changes with an elevator ride).
    expect(await within(mapBox).findByText(/3F East/, {}, slow)).toBeInTheDocument();
    // Target 1 is the lobby (go-lobby), target 2 the charger (home, the current step).
    const target2 = await within(mapBox).findByTestId('flow-run-map-target-2', {}, slow);
    expect(target2).toHaveAttribute('data-current', 'true');
    expect(within(mapBox).getByTestId('flow-run-map-target-1')).not.toHaveAttribute('data-current');
    expect(within(mapBox).queryByTestId('flow-run-map-robot')).not.toBeInTheDocument();
    await waitFor(() => expect(realtime.subscribed(robotTopic(55))).toBe(true));
    // The live panel holds the robot's topic already: the map, then its robot marker (drawn once the
    // map has loaded), each ask for a snapshot of their own.
    const refreshes = () =>
      realtime.sent.filter((m) => m.type === 'unsubscribe' && 'topic' in m && m.topic === robotTopic(55)).length;
    await waitFor(() => expect(refreshes()).toBe(2));
    realtime.snapshot(robotTopic(55), [
      fleetRobot(55, 'Lobby guide', { x: 5, y: 2, theta: 0, mapId: 'floor-1', floorId: 1 }),
    ]);
    expect(await within(mapBox).findByTestId('flow-run-map-robot')).toHaveAttribute('transform', 'translate(5.8 3.8)');
  });

  it('names the elevator phase of a ride in progress', async () => {
    const ride = step(1, 'up', 'moveToFloor', { result: 'running', endedAt: null, data: { phase: 'movement' } });
    mockApi({
      ...robotRoutes(() => [run({ currentStepId: 'up', currentStepKind: 'moveToFloor' })], []),
      [on(flowRunOps.getFlowRun)]: () =>
        reply(flowRunDetailSchema, detail({ currentStepId: 'up', currentStepKind: 'moveToFloor' }, [ride])),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    expect(await screen.findByTestId('flow-run-current-step', {}, slow)).toHaveTextContent(
      'Current step: Move to floor (elevator) (up) · Moving',
    );
  });

  it('Pause, Resume and Cancel (after a confirmation) call their operations', async () => {
    let current = detail();
    const { calls } = mockApi({
      ...robotRoutes(() => (current.status === 'cancel' ? [] : [run({ status: current.status })]), []),
      [on(flowRunOps.getFlowRun)]: () => reply(flowRunDetailSchema, current),
      [on(flowRunOps.pauseFlowRun)]: () => {
        current = { ...current, status: 'paused' };
        return reply(flowRunSchema, run({ status: 'paused' }));
      },
      [on(flowRunOps.resumeFlowRun)]: () => {
        current = { ...current, status: 'running' };
        return reply(flowRunSchema, run());
      },
      [on(flowRunOps.cancelFlowRun)]: () => {
        current = { ...current, status: 'cancel', currentStepId: null, currentStepKind: null, endedAt: T0 };
        return reply(flowRunSchema, run({ status: 'cancel', currentStepId: null, currentStepKind: null, endedAt: T0 }));
      },
    });
    const app = renderApp('/robot/55', { session: makeSession(2), realtime });
    const panel = await screen.findByTestId('flow-run-panel', {}, slow);
    const posts = () => calls.filter((c) => c.method === 'POST').map((c) => c.path);

    await app.user.click(within(panel).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('Paused'));
    expect(posts()).toEqual(['/api/flow-runs/7/pause']);

    await app.user.click(within(panel).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('Running'));
    expect(posts()).toEqual(['/api/flow-runs/7/pause', '/api/flow-runs/7/resume']);

    await app.user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Cancel "Night patrol" on Lobby guide?');
    // Keeping it running sends nothing.
    await app.user.click(within(confirm).getByRole('button', { name: 'Keep running' }));
    expect(posts()).toHaveLength(2);
    await app.user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await app.user.click(await screen.findByRole('button', { name: 'Cancel flow' }));
    await waitFor(() => expect(posts()).toContain('/api/flow-runs/7/cancel'));
    // The ended run stays on the page with its result, without controls.
    await waitFor(() => expect(screen.getByTestId('flow-run-status')).toHaveTextContent('Cancelled'));
    const ended = screen.getByTestId('flow-run-panel');
    for (const name of ['Pause', 'Resume', 'Cancel'])
      expect(within(ended).queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('reads the run every second while it is active and stops once it is final', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const answers = [detail(), detail({ currentStepId: 'home', currentStepKind: 'returnToCharger' })];
    const final = detail({ status: 'done', currentStepId: null, currentStepKind: null, endedAt: T0 });
    const { calls } = mockApi({
      ...robotRoutes(() => [run()], []),
      [on(flowRunOps.getFlowRun)]: () => reply(flowRunDetailSchema, answers.shift() ?? final),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const current = await screen.findByTestId('flow-run-current-step', {}, slow);
    expect(current).toHaveTextContent('Take photo (photo)');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() =>
      expect(screen.getByTestId('flow-run-current-step')).toHaveTextContent('Return to charger (home)'),
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(screen.getByTestId('flow-run-status')).toHaveTextContent('Done'));
    const reads = detailCalls(calls).length;
    expect(reads).toBe(3);
    // Final: ten more seconds bring no further read of the run.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(detailCalls(calls)).toHaveLength(reads);
  });

  it('says when no flow runs, and the words are Japanese in ja', async () => {
    await i18n.changeLanguage('ja');
    mockApi({
      ...robotRoutes(() => [run({ status: 'paused' })], []),
      [on(flowRunOps.getFlowRun)]: () => reply(flowRunDetailSchema, detail({ status: 'paused' })),
    });
    renderApp('/robot/55', { session: makeSession(2), realtime });
    const panel = await screen.findByTestId('flow-run-panel', {}, slow);
    expect(within(panel).getByTestId('flow-run-status')).toHaveTextContent('一時停止中');
    expect(within(panel).getByTestId('flow-run-current-step')).toHaveTextContent('(photo)');
    expect(within(panel).getByRole('button', { name: '再開' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'キャンセル' })).toBeInTheDocument();
    expect(await screen.findByTestId('flow-runs-empty', {}, slow)).toHaveTextContent(
      'このロボットはまだフローを実行していません。',
    );
  });

  it('starts a flow of the robot’s building with "Run flow"', async () => {
    let active: FlowRun[] = [];
    const { calls } = mockApi({
      ...robotRoutes(() => active, []),
      [on(flowOps.listFlows)]: () => reply(z.array(flowSchema), [flow]),
      [on(flowRunOps.startFlowRun)]: () => {
        active = [run()];
        return reply(flowRunSchema, run(), 201);
      },
      [on(flowRunOps.getFlowRun)]: () => reply(flowRunDetailSchema, detail()),
    });
    const app = renderApp('/robot/55', { session: makeSession(2), realtime });
    expect(await screen.findByTestId('flow-run-none', {}, slow)).toHaveTextContent('No flow is running on this robot.');
    await app.user.click(screen.getByRole('button', { name: 'Run flow' }));
    const dialog = await screen.findByRole('dialog');
    const choice = within(dialog).getByTestId('flow-run-choice');
    await waitFor(() => expect(choice).toBeEnabled());
    await app.user.selectOptions(choice, 'Night patrol');
    await app.user.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(await screen.findByTestId('flow-run-panel', {}, slow)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/api/flows/3/runs');
    const flows = calls.find((c) => c.path === '/api/flows');
    expect(JSON.parse(flows?.search.get('filter') ?? '{}')).toMatchObject({
      where: { and: [{ buildingId: 10 }, { enabled: true }] },
    });
  });
});

describe('the operator screen’s running flow', { timeout: 30_000 }, () => {
  const renderLine = () => {
    for (const [lng, texts] of [
      ['en', flowsEn],
      ['ja', flowsJa],
    ] as const)
      i18n.addResourceBundle(lng, 'translation', texts, true, true);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <AppProvider queryClient={queryClient} env="test">
        <RunningFlowLine robotId={55} />
      </AppProvider>,
    );
  };

  it('names the running flow and its current step, and shows nothing without one', async () => {
    let active = [run({ currentStepId: 'go-lobby', currentStepKind: 'moveToWaypoint' })];
    const { calls } = mockApi({ [on(flowRunOps.listFlowRuns)]: () => runs(active) });
    const view = renderLine();
    expect(await screen.findByTestId('teleop-flow', {}, slow)).toHaveTextContent(
      'Running flow: Night patrol: Move to waypoint (go-lobby)',
    );
    expect(JSON.parse(calls[0]?.search.get('filter') ?? '{}')).toEqual({
      where: { and: [{ robotId: 55 }, { status: { inq: ['running', 'paused'] } }] },
      order: 'startedAt DESC',
      limit: 1,
    });
    view.unmount();
    active = [];
    renderLine();
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(screen.queryByTestId('teleop-flow')).not.toBeInTheDocument();
  });

  it('says paused in Japanese', async () => {
    await i18n.changeLanguage('ja');
    mockApi({ [on(flowRunOps.listFlowRuns)]: () => runs([run({ status: 'paused' })]) });
    renderLine();
    expect(await screen.findByTestId('teleop-flow', {}, slow)).toHaveTextContent(
      '実行中のフロー: Night patrol（一時停止中）：写真撮影 (photo)',
    );
  });
});

describe('the robot control grid', { timeout: 30_000 }, () => {
  it('names the running flow and its step on the robot’s card, from one request for all robots', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(robotOps.listFleet)]: () =>
        reply(z.array(fleetRobotSchema), [fleetRobot(55, 'Lobby guide'), fleetRobot(56, 'Stairs')]),
      [on(flowRunOps.listFlowRuns)]: () => runs([run()]),
    });
    renderApp('/robot/control', { session: makeSession(0), realtime });
    const card = await screen.findByTestId('robot-card-UGO-55', {}, slow);
    expect(await within(card).findByTestId('robot-flow-55', {}, slow)).toHaveTextContent(
      'Running flow: Night patrol: Take photo (photo)',
    );
    expect(within(screen.getByTestId('robot-card-UGO-56')).queryByTestId('robot-flow-56')).not.toBeInTheDocument();
    const lists = calls.filter((c) => c.path === '/api/flow-runs');
    expect(lists).toHaveLength(1);
    expect(JSON.parse(lists[0]?.search.get('filter') ?? '{}')).toMatchObject({
      where: { status: { inq: ['running', 'paused'] } },
    });
  });
});

describe('polling rule', () => {
  it('polls a running or paused run every second and never a final one', () => {
    expect(runPollInterval({ status: 'running' })).toBe(1000);
    expect(runPollInterval({ status: 'paused' })).toBe(1000);
    for (const status of ['done', 'fail', 'cancel', 'unknown'] as const)
      expect(runPollInterval({ status })).toBe(false);
  });
});
