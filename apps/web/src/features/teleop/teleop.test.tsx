import {
  buildingOps,
  robotActionResultSchema,
  robotFeatureOps,
  robotOps,
  robotPhotoSchema,
  robotSchema,
  robotTeleopSchema,
  speechTextSchema,
  type TeleopPeerStatus,
} from '@portal/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type Routes } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';
import { fleetRobot, robotTeleop, teleopRobot } from './testing/fixtures';
import { FakePeer } from './testing/fakes';
import { ROOMY_QUERY, SIDE_BY_SIDE_QUERY, TABLET_LANDSCAPE_QUERY } from './components/tablet-layout';

const slow = { timeout: 5000 };

/** The tab's live updates and teleop signalling, played by the test. */
let realtime: FakeRealtime;

/** The realtime link, once the screen opened its teleop link on it. */
async function serverSocket(): Promise<FakeRealtime> {
  await waitFor(() => expect(realtime.isActive()).toBe(true), slow);
  return realtime;
}

/** Waits for the screen's join, answers it, and returns the peer it opened. */
async function join(
  sock: FakeRealtime,
  role: 'controller' | 'viewer',
  controller: { operatorId: number; name: string } | null,
) {
  await waitFor(() => expect(sock.ofType('teleop.join')).toHaveLength(1), slow);
  sock.receive({ type: 'teleop.joined', robotId: 5, sessionId: 'sess-1', role, controller, iceServers: [] });
  await waitFor(() => expect(FakePeer.all).toHaveLength(1));
  await waitFor(() => expect(sock.ofType('teleop.signal')).toHaveLength(1));
  return FakePeer.all[0]!;
}

const status = (over: Partial<TeleopPeerStatus> = {}): TeleopPeerStatus => ({
  type: 'status',
  camera: 'v1',
  cameras: ['v1', 'v2', 'g1', 'thermal'],
  video: 'high',
  thermalColorMap: 'normal',
  controller: true,
  deadmanStopped: false,
  blocked: null,
  ...over,
});

const me = { operatorId: 7, name: 'Hanako Yamada' };
const other = { operatorId: 9, name: 'Taro Sato' };

const routes = (extra: Routes = {}): Routes => ({
  ...signedInRoutes(),
  [on(robotFeatureOps.getRobotBySerial, { serialNo: 'UGO-5' })]: () => reply(robotSchema, teleopRobot()),
  [on(robotFeatureOps.getRobotTeleop)]: () => reply(robotTeleopSchema, robotTeleop()),
  [on(buildingOps.listSpeechTexts)]: () =>
    reply(z.array(speechTextSchema), [
      {
        id: 1,
        buildingId: 10,
        language: 'en',
        text: 'Please step aside',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      },
    ]),
  ...extra,
});

beforeEach(() => {
  realtime = new FakeRealtime();
  FakePeer.all = [];
  vi.stubGlobal('RTCPeerConnection', FakePeer);
});

describe('operator screen', () => {
  it('watches: joins to watch, shows who operates and no take-over for a general operator', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/watch/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'viewer', other);
    expect(sock.ofType('teleop.join')[0]).toEqual({ type: 'teleop.join', robotId: 5, want: 'watch' });
    expect(await screen.findByTestId('teleop-controller')).toHaveTextContent('Being operated by Taro Sato');
    expect(screen.queryByTestId('teleop-takeover')).not.toBeInTheDocument();
    expect(screen.getByTestId('teleop-stop')).toBeDisabled();
    expect(window.__teleopDebug).toEqual({ sessionId: 'sess-1', role: 'viewer', sent: 0 });
    // The robot's own cameras, with readable names.
    expect(screen.getByTestId('teleop-camera-v2')).toHaveTextContent('Rear');
  });

  it('lets an administrator take over, and sends it with the session id', async () => {
    mockApi(routes());
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(2), realtime });
    const sock = await serverSocket();
    await join(sock, 'viewer', other);
    expect(sock.ofType('teleop.join')[0]).toMatchObject({ want: 'control' });
    await app.user.click(await screen.findByTestId('teleop-takeover'));
    expect(sock.ofType('teleop.takeover')).toEqual([{ type: 'teleop.takeover', sessionId: 'sess-1' }]);
  });

  it('offers the free controls and tells the controller when an administrator took over', async () => {
    mockApi(routes());
    const app = renderApp('/app/tele-ope/watch/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'viewer', null);
    await app.user.click(await screen.findByTestId('teleop-request'));
    expect(sock.ofType('teleop.request')).toHaveLength(1);
    sock.receive({
      type: 'teleop.controller',
      robotId: 5,
      sessionId: 'sess-1',
      role: 'controller',
      controller: me,
      reason: 'granted',
      by: null,
    });
    expect(screen.getByTestId('teleop-controller')).toHaveTextContent('You have the controls');
    sock.receive({
      type: 'teleop.controller',
      robotId: 5,
      sessionId: 'sess-1',
      role: 'viewer',
      controller: { operatorId: 1, name: 'Admin Kato' },
      reason: 'takenOver',
      by: { operatorId: 1, name: 'Admin Kato' },
    });
    expect(await screen.findByTestId('teleop-taken-over')).toHaveTextContent('Admin Kato took over the controls');
    expect(screen.getByTestId('teleop-controller')).toHaveTextContent('Being operated by Admin Kato');
  });

  it('shows the state, the dead-man stop and the robot messages; drives with the keyboard as controller', async () => {
    mockApi(routes());
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'controller', me);
    expect(screen.getByTestId('teleop-state')).toHaveAttribute('data-state', 'connecting');
    sock.receive({
      type: 'snapshot',
      topic: 'robot:5',
      robots: [
        fleetRobot({
          activity: 'driving',
          issues: [
            { code: 'emergencyStop', level: 'FATAL', description: null },
            { code: 'F0007', level: 'WARNING', description: null },
          ],
        }),
      ],
    });
    act(() => {
      pc.setState('connected');
      pc.channel('control').open();
      pc.channel('command').open();
      pc.channel('command').receive(status({ deadmanStopped: true, blocked: 'emergencyStop' }));
    });
    expect(screen.getByTestId('teleop-state')).toHaveAttribute('data-state', 'running');
    expect(screen.getByTestId('teleop-state')).toHaveTextContent('Running');
    expect(screen.getByTestId('teleop-deadman')).toHaveTextContent('Stopped: control input lost');
    expect(screen.getByTestId('teleop-estop')).toHaveTextContent('drive power is cut');
    expect(await screen.findByTestId('teleop-issues')).toHaveTextContent('Obstacle on route, so movement is suspended');
    expect(screen.getByTestId('teleop-battery')).toHaveTextContent('76%');
    expect(screen.getByTestId('teleop-interface')).toHaveTextContent('wlan0');

    // W drives (sent on the next tick), Space stops at once.
    await app.user.keyboard('{w>}');
    await waitFor(() => expect(pc.channel('control').sent.length).toBeGreaterThan(0));
    await waitFor(() =>
      expect(JSON.parse(pc.channel('control').sent.at(-1)!)).toMatchObject({ vx: 1, wz: 0, stop: false }),
    );
    await app.user.keyboard('{/w} ');
    expect(JSON.parse(pc.channel('control').sent.at(-1)!)).toMatchObject({ vx: 0, stop: true });
    expect(window.__teleopDebug?.sent).toBe(pc.channel('control').sent.length);

    // Camera switch goes over the command channel.
    await app.user.click(screen.getByTestId('teleop-camera-g1'));
    expect(pc.channel('command').parsed()).toEqual([{ type: 'camera', camera: 'g1' }]);
  });

  it('starts the video at the robot’s registered video setting', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'controller', me);
    act(() => {
      pc.setState('connected');
      pc.channel('command').open();
      pc.channel('command').receive(status({ video: 'medium' }));
    });
    // The fixture robot is registered with `high`.
    await waitFor(() => expect(pc.channel('command').parsed()).toEqual([{ type: 'video', mode: 'high' }]));
  });

  it('says in words why driving is blocked and pauses the patrol so the operator can drive', async () => {
    const { calls } = mockApi(
      routes({
        [on(robotOps.sendRobotCommand)]: () => reply(robotOps.sendRobotCommand.responses[202], { ok: true }, 202),
      }),
    );
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'controller', me);
    sock.receive({ type: 'snapshot', topic: 'robot:5', robots: [fleetRobot({ activity: 'driving' })] });
    act(() => {
      pc.setState('connected');
      pc.channel('command').open();
      pc.channel('command').receive(status({ blocked: 'orderRunning' }));
    });
    expect(await screen.findByTestId('teleop-blocked')).toHaveTextContent(
      'Driving blocked: the robot is running a patrol (pause it to drive)',
    );
    await app.user.click(screen.getByTestId('teleop-pause-order'));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/robots/5/commands')?.body).toEqual({ command: 'pause' }),
    );
  });

  it('offers a watcher neither pausing nor resuming the patrol, and never says they can operate', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/watch/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'viewer', other);
    sock.receive({ type: 'snapshot', topic: 'robot:5', robots: [fleetRobot({ activity: 'driving', orderId: 'o-1' })] });
    act(() => {
      pc.setState('connected');
      pc.channel('command').open();
      pc.channel('command').receive(status({ controller: false, blocked: 'orderRunning' }));
    });
    expect(await screen.findByTestId('teleop-blocked')).toBeInTheDocument();
    expect(screen.queryByTestId('teleop-pause-order')).not.toBeInTheDocument();
    act(() => {
      pc.channel('command').receive(status({ controller: false, blocked: null }));
      sock.receive({
        type: 'snapshot',
        topic: 'robot:5',
        robots: [fleetRobot({ activity: 'paused', orderId: 'o-1' })],
      });
    });
    const paused = await screen.findByTestId('teleop-order-paused');
    expect(paused).toHaveTextContent('The operator holding the controls can drive and resume it.');
    expect(paused).not.toHaveTextContent('you can drive the robot');
    expect(screen.queryByTestId('teleop-resume-order')).not.toBeInTheDocument();
  });

  it('offers the controller resuming the paused patrol', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'controller', me);
    sock.receive({ type: 'snapshot', topic: 'robot:5', robots: [fleetRobot({ activity: 'paused', orderId: 'o-1' })] });
    expect(await screen.findByTestId('teleop-order-paused')).toHaveTextContent('you can drive the robot');
    expect(screen.getByTestId('teleop-resume-order')).toBeInTheDocument();
  });

  it('names the running order instead of its id, and keeps the banners beside the robot box', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/watch/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'viewer', other);
    const orderId = '695848db-0c1e-4a43-9d6f-1b2c3d4e5f60';
    sock.receive({
      type: 'snapshot',
      topic: 'robot:5',
      robots: [fleetRobot({ activity: 'driving', orderId, orderLabel: { kind: 'goto', name: 'Reception' } })],
    });
    const flow = await screen.findByTestId('teleop-flow');
    await waitFor(() => expect(flow).toHaveTextContent('Flow: → Reception'));
    expect(flow).not.toHaveTextContent(orderId);

    sock.receive({
      type: 'snapshot',
      topic: 'robot:5',
      robots: [fleetRobot({ activity: 'driving', orderId, orderLabel: { kind: 'trialRun', name: 'Route A' } })],
    });
    await waitFor(() => expect(flow).toHaveTextContent('Flow: Trial run: Route A'));
    // An order the portal did not send is the robot's own.
    sock.receive({ type: 'snapshot', topic: 'robot:5', robots: [fleetRobot({ activity: 'driving', orderId })] });
    await waitFor(() => expect(flow).toHaveTextContent('Flow: Order from the robot'));
    expect(flow).not.toHaveTextContent(orderId);

    // The blocked banner sits in the same row as the robot's box (beside it or below it), not over it.
    act(() => {
      pc.setState('connected');
      pc.channel('command').open();
      pc.channel('command').receive(status({ controller: false, blocked: 'orderRunning' }));
    });
    const row = screen.getByTestId('teleop-top-row');
    expect(row).toContainElement(await screen.findByTestId('teleop-blocked'));
    expect(row).toContainElement(screen.getByTestId('teleop-robot-overlay'));
    expect(screen.getByTestId('teleop-alerts').style.position).not.toBe('absolute');
  });

  it('shows the already-started notice when recording was already started (409)', async () => {
    const { calls } = mockApi(
      routes({
        [on(robotFeatureOps.sendRobotAction)]: () => replyError('RECORDING_ALREADY_STARTED'),
      }),
    );
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'controller', me);
    await app.user.click(await screen.findByTestId('teleop-recording-start'));
    expect(await screen.findByTestId('teleop-recording-notice')).toHaveTextContent('Recording has already started.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ type: 'startRecording' });
  });

  it('takes a photo with the current camera and speaks a phrase', async () => {
    const { calls } = mockApi(
      routes({
        [on(robotFeatureOps.sendRobotAction)]: () => reply(robotActionResultSchema, { actionId: 'a-1' }, 202),
        [on(robotFeatureOps.listRobotPhotos)]: () => reply(z.array(robotPhotoSchema), []),
      }),
    );
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'controller', me);
    act(() => {
      pc.channel('command').open();
      pc.channel('command').receive(status({ camera: 'v2' }));
    });
    await app.user.click(screen.getByTestId('teleop-photo'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { type: 'takePhoto', camera: 'v2' },
      ]),
    );
    await app.user.click(screen.getByRole('tab', { name: 'Speech' }));
    await app.user.click(await screen.findByRole('button', { name: 'Please step aside' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
        type: 'speak',
        text: 'Please step aside',
        language: 'en',
      }),
    );
    // Work plans: this robot cannot run them.
    expect(screen.getByTestId('teleop-workplan')).toBeDisabled();
  });

  it('rings when a customer calls and answers', async () => {
    const { calls } = mockApi(
      routes({ [on(robotFeatureOps.sendRobotAction)]: () => reply(robotActionResultSchema, { actionId: 'a-2' }, 202) }),
    );
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'controller', me);
    expect(screen.queryByTestId('teleop-call')).not.toBeInTheDocument();
    const robot = fleetRobot();
    sock.receive({ type: 'snapshot', topic: 'robot:5', robots: [robot] });
    sock.receive({
      type: 'live',
      robotId: 5,
      live: { ...robot.live, teleop: { ...robot.live.teleop!, call: 'calling' } },
    });
    expect(await screen.findByTestId('teleop-call')).toHaveTextContent('Customer service call');
    await app.user.click(screen.getByTestId('teleop-call-answer'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ type: 'answerCall' }));
  });

  it('says the robot is offline and takes the controls away', async () => {
    mockApi(routes());
    renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'controller', me);
    sock.receive({
      type: 'snapshot',
      topic: 'robot:5',
      robots: [fleetRobot({ online: false, statusLabel: 'offline' })],
    });
    sock.receive({ type: 'teleop.closed', sessionId: 'sess-1', reason: 'robotOffline' });
    expect(await screen.findByTestId('teleop-offline')).toBeInTheDocument();
    expect(screen.getByTestId('teleop-state')).toHaveAttribute('data-state', 'offline');
    expect(screen.getByTestId('teleop-session')).toHaveTextContent('The robot went offline.');
    expect(screen.getByTestId('teleop-stop')).toBeDisabled();
  });

  it('leaves the session when the screen closes', async () => {
    mockApi(routes());
    const app = renderApp('/app/tele-ope/drive/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    await join(sock, 'controller', me);
    act(() => void app.router.navigate('/robot/control'));
    await waitFor(() => expect(sock.ofType('teleop.leave')).toEqual([{ type: 'teleop.leave', sessionId: 'sess-1' }]));
    expect(window.__teleopDebug).toBeUndefined();
  });

  it('drives by default for an unknown mode, and says when the serial number is unknown', async () => {
    mockApi(routes());
    const app = renderApp('/app/tele-ope/steer/UGO-5', { session: makeSession(0), realtime });
    await waitFor(() => expect(app.location()).toBe('/app/tele-ope/drive/UGO-5'), slow);
    act(() => void app.router.navigate('/app/tele-ope/drive/NOPE'));
    expect(await screen.findByTestId('teleop-not-found', {}, slow)).toHaveTextContent('NOPE');
  });
});

describe('basic controller', () => {
  it('asks for the controls and shows the big stop button and the phrases', async () => {
    mockApi(routes());
    renderApp('/app/basic/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'controller', me);
    expect(sock.ofType('teleop.join')[0]).toMatchObject({ want: 'control' });
    act(() => {
      pc.setState('connected');
      pc.channel('control').open();
    });
    expect(await screen.findByTestId('teleop-basic')).toBeInTheDocument();
    expect(screen.getByTestId('teleop-stop')).toBeEnabled();
    expect(await screen.findByRole('button', { name: 'Please step aside' })).toBeInTheDocument();
    expect(screen.getByTestId('teleop-state')).toHaveAttribute('data-state', 'stopped');
  });

  it('names the running order, and offers a watcher no pause', async () => {
    mockApi(routes());
    renderApp('/app/basic/UGO-5', { session: makeSession(0), realtime });
    const sock = await serverSocket();
    const pc = await join(sock, 'viewer', other);
    sock.receive({
      type: 'snapshot',
      topic: 'robot:5',
      robots: [fleetRobot({ activity: 'driving', orderId: 'ab-12', orderLabel: { kind: 'patrol', name: null } })],
    });
    await waitFor(() => expect(screen.getByTestId('teleop-flow')).toHaveTextContent('Flow: Patrol'));
    expect(screen.getByTestId('teleop-flow')).not.toHaveTextContent('ab-12');
    act(() => {
      pc.setState('connected');
      pc.channel('command').open();
      pc.channel('command').receive(status({ controller: false, blocked: 'orderRunning' }));
    });
    expect(await screen.findByTestId('teleop-blocked')).toBeInTheDocument();
    expect(screen.queryByTestId('teleop-pause-order')).not.toBeInTheDocument();
    expect(screen.getByTestId('teleop-top-row')).toContainElement(screen.getByTestId('teleop-robot-overlay'));
  });
});

/** The window matches these media queries (and no other). */
function mediaMatches(...matching: string[]) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string): MediaQueryList => ({
    matches: matching.includes(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/** Opens a screen as the controller, connected, with driving blocked by the running patrol. */
async function blockedByPatrol(path: string) {
  mockApi(routes());
  const app = renderApp(path, { session: makeSession(0), realtime });
  const sock = await serverSocket();
  const pc = await join(sock, 'controller', me);
  act(() => {
    pc.setState('connected');
    pc.channel('control').open();
    pc.channel('command').open();
    pc.channel('command').receive(status({ blocked: 'orderRunning' }));
  });
  expect(await screen.findByTestId('teleop-blocked')).toBeInTheDocument();
  return app;
}

describe('operator screens on a tablet', () => {
  it('portrait (stacked): the drive pad and stop stand on their own below the video, beside speech and devices', async () => {
    mediaMatches();
    await blockedByPatrol('/app/tele-ope/drive/UGO-5');
    expect(screen.getByTestId('teleop-screen')).toHaveAttribute('data-layout', 'stacked');
    const drive = screen.getByTestId('teleop-drive');
    expect(drive).toContainElement(screen.getByTestId('teleop-joystick'));
    expect(drive).toContainElement(screen.getByTestId('teleop-stop'));
    // Talking is in view at the same time: the tabs keep speech and devices, no drive tab.
    expect(screen.queryByRole('tab', { name: 'Drive' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Speech' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('teleop-talk')).toBeInTheDocument();
    // The video is wide: the alerts sit over it, beside the robot's box.
    expect(screen.getByTestId('teleop-top-row')).toContainElement(screen.getByTestId('teleop-blocked'));
  });

  it('landscape (side by side, 992-1199 px): the alerts stand above the narrow video, never over it', async () => {
    mediaMatches(SIDE_BY_SIDE_QUERY);
    await blockedByPatrol('/app/tele-ope/drive/UGO-5');
    expect(screen.getByTestId('teleop-screen')).toHaveAttribute('data-layout', 'wide');
    expect(screen.getByTestId('teleop-top-row')).not.toContainElement(screen.getByTestId('teleop-blocked'));
    expect(screen.getByTestId('teleop-top-row')).toContainElement(screen.getByTestId('teleop-robot-overlay'));
    expect(screen.getByRole('tab', { name: 'Drive' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('teleop-stop')).toBeEnabled();
  });

  it('desktop (1200 px and wider): the alerts stay over the video, as before', async () => {
    mediaMatches(SIDE_BY_SIDE_QUERY, ROOMY_QUERY);
    await blockedByPatrol('/app/tele-ope/drive/UGO-5');
    expect(screen.getByTestId('teleop-screen')).toHaveAttribute('data-layout', 'wide');
    expect(screen.getByTestId('teleop-top-row')).toContainElement(screen.getByTestId('teleop-blocked'));
  });

  it('basic controller in landscape: the alerts stand above the video beside the drive pad', async () => {
    mediaMatches(TABLET_LANDSCAPE_QUERY);
    await blockedByPatrol('/app/basic/UGO-5');
    expect(screen.getByTestId('teleop-top-row')).not.toContainElement(screen.getByTestId('teleop-blocked'));
    expect(screen.getByTestId('teleop-pause-order')).toBeEnabled();
    expect(screen.getByTestId('teleop-drive')).toContainElement(screen.getByTestId('teleop-stop'));
  });

  it('basic controller in portrait: the alerts sit over the video', async () => {
    mediaMatches();
    await blockedByPatrol('/app/basic/UGO-5');
    expect(screen.getByTestId('teleop-top-row')).toContainElement(screen.getByTestId('teleop-blocked'));
  });
});
