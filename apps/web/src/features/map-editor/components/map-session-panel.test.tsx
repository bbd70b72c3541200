import {
  floorDetailSchema,
  floorMapSchema,
  floorOps,
  mapOps,
  mapSessionOps,
  mapSessionSchema,
  type FleetRobot,
  type MapSession,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type ApiCall, type Routes } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';
import { testDocument, testFloor, testFloorMap } from '../test-fixtures';
import type { SessionOverlaySource } from './session-overlay';

// Konva needs a real canvas: the drawing is stubbed; the overlay source it would draw is kept.
const canvas = vi.hoisted(() => ({ overlay: null as unknown }));
vi.mock('../canvas/map-canvas', async () => {
  const { useEffect } = await import('react');
  return {
    MapCanvas: ({ onReady, overlay }: { onReady?: () => void; overlay?: unknown }) => {
      canvas.overlay = overlay;
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="map-canvas" />;
    },
  };
});
const overlay = () => canvas.overlay as SessionOverlaySource;

/** The tab's live updates, played by the test. */
let realtime: FakeRealtime;

/** Decodes instantly (jsdom does not load images). */
class FakeImage {
  onload: (() => void) | null = null;
  set src(_v: string) {
    queueMicrotask(() => this.onload?.());
  }
}

const slow = { timeout: 5000 };

const document = testDocument;
const floorMap = testFloorMap;
const floor = testFloor;

const robot: FleetRobot = {
  id: 7,
  serialNo: 'SN-7',
  name: 'Mapper',
  model: 'pro',
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Tower',
  groupId: null,
  groupName: null,
  status: 1,
  live: {
    robotId: 7,
    online: true,
    everSeen: true,
    statusLabel: 'available',
    battery: 80,
    batteryState: 'active',
    activity: 'idle',
    orderId: null,
    floorId: 5,
    position: { x: 1, y: 1, theta: 0, mapId: 'floor-5', floorId: 5 },
    issues: [],
    lastCommunicationAt: '2026-01-01T00:00:00.000Z',
    protocolVersion: '2.0.0',
  },
};

const mapSession = (over: Partial<MapSession> = {}): MapSession =>
  mapSessionSchema.parse({
    robotId: 7,
    floorId: 5,
    kind: 'mapping',
    state: 'recording',
    startedAt: '2026-01-10T03:00:00.000Z',
    map: null,
    points: [],
    pointInterval: null,
    ...over,
  });

function routes(extra: Routes) {
  return mockApi({
    ...signedInRoutes(),
    [on(mapOps.getFloorMap, { id: 5 })]: () => reply(floorMapSchema, floorMap()),
    [on(floorOps.getFloor, { id: 5 })]: () => reply(floorDetailSchema, floor),
    [on(mapSessionOps.getMapSession, { id: 7 })]: () => reply(mapSessionSchema.nullable(), null),
    ...extra,
  });
}

const bodies = (calls: ApiCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

/** Opens the editor as an organization administrator, with robot 7 on the floor, and picks it. */
async function openPanel(extra: Routes) {
  const { calls } = routes(extra);
  const app = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
  await screen.findByTestId('editor-toolbar', undefined, slow);
  const sock = realtime;
  await waitFor(() => expect(sock.subscribed('fleet:10')).toBe(true));
  sock.snapshot('fleet:10', [robot]);
  await app.user.click(screen.getByText('Mapping & recording'));
  const panel = screen.getByTestId('map-session');
  await app.user.click(within(panel).getByRole('textbox', { name: 'Robot on this floor' }));
  await app.user.click(await screen.findByRole('option', { name: 'Mapper' }));
  return { ...app, calls, sock, panel };
}

const badge = () => screen.getByTestId('map-session-state');

beforeEach(() => {
  realtime = new FakeRealtime();
  vi.stubGlobal('Image', FakeImage);
});

describe('robot mapping and route recording', () => {
  it('starts mapping, shows the map growing, pauses, resumes and saves it as the floor image', async () => {
    const answer =
      (state: MapSession['state'], status = 200) =>
      () =>
        reply(mapSessionSchema, mapSession({ state }), status);
    const { calls, user, sock, panel } = await openPanel({
      [on(mapSessionOps.startMapping, { id: 7 })]: answer('recording', 202),
      [on(mapSessionOps.pauseMapping, { id: 7 })]: answer('paused'),
      [on(mapSessionOps.resumeMapping, { id: 7 })]: answer('resumed'),
      [on(mapSessionOps.stopMapping, { id: 7 })]: answer('saved'),
    });
    expect(within(panel).queryByTestId('map-session-state')).toBeNull();
    await user.click(screen.getByTestId('map-session-start'));
    await waitFor(() => expect(badge()).toHaveTextContent('Recording'));
    expect(bodies(calls, 'POST', '/api/robots/7/mapping')).toEqual([{ floorId: 5 }]);
    expect(screen.getByTestId('map-session-progress')).toHaveTextContent('Waiting for the robot’s first map');

    // The robot's map so far arrives over the WebSocket: the panel and the canvas overlay follow.
    const map = {
      image: 'data:image/png;base64,AA==',
      width: 40,
      height: 20,
      resolution: 0.05,
      originX: -1,
      originY: 0,
    };
    sock.receive({ type: 'mapSession', robotId: 7, session: mapSession({ map }) });
    expect(screen.getByTestId('map-session-progress')).toHaveTextContent('Map so far: 2.0 × 1.0 m');
    await waitFor(() => expect(overlay().get().map).toMatchObject({ width: 40, height: 20, originX: -1 }));
    sock.receive({ type: 'mapSession', robotId: 8, session: mapSession({ robotId: 8, state: 'paused' }) });
    expect(badge()).toHaveTextContent('Recording');

    await user.click(screen.getByTestId('map-session-pause'));
    await waitFor(() => expect(badge()).toHaveTextContent('Paused'));
    await user.click(screen.getByTestId('map-session-resume'));
    await waitFor(() => expect(badge()).toHaveTextContent('Resumed'));
    expect(screen.getByTestId('map-session-pause')).toBeInTheDocument();

    const mapLoads = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/floors/5/map').length;
    const before = mapLoads();
    await user.click(screen.getByTestId('map-session-save'));
    expect(await screen.findByText('Replace this floor’s map image with the robot’s map?')).toBeInTheDocument();
    await user.click(screen.getByTestId('map-session-confirm-map'));
    await waitFor(() => expect(badge()).toHaveTextContent('Saved'));
    expect(bodies(calls, 'POST', '/api/robots/7/mapping/stop')).toEqual([{ save: true }]);
    await waitFor(() => expect(mapLoads()).toBe(before + 1));
    expect(overlay().get().map).toBeNull();
    expect(screen.getByTestId('map-session-start')).toBeInTheDocument();
  }, 20_000);

  it('shows why a start was refused: the reason the server gave', async () => {
    const { user } = await openPanel({
      [on(mapSessionOps.startMapping, { id: 7 })]: () =>
        replyError('CONFLICT', [{ path: 'robot', message: 'validation.sessionRunning' }]),
    });
    await user.click(screen.getByTestId('map-session-start'));
    expect(await screen.findByText('This robot is already creating a map or recording a route')).toBeInTheDocument();
    expect(screen.queryByTestId('map-session-state')).toBeNull();
  }, 20_000);

  it('records a route at a checked interval and saves it under a required name as a new revision', async () => {
    const points = [
      { x: 1, y: 1 },
      { x: 1.2, y: 1 },
    ];
    const saved = floorMap({
      revision: 4,
      document: {
        ...document,
        waypoints: [
          ...document.waypoints,
          { id: 3, name: 'Loop A start', x: 1, y: 1, theta: 0, type: 1 },
          { id: 4, name: 'Loop A end', x: 1.2, y: 1, theta: 0, type: 1 },
        ],
        routes: [{ id: 1, name: 'Loop A', waypointIds: [3, 4], recorded: { pointInterval: 0.2, points } }],
      },
    });
    const { calls, user, sock } = await openPanel({
      [on(mapSessionOps.startRouteRecording, { id: 7 })]: () =>
        reply(mapSessionSchema, mapSession({ kind: 'recording', pointInterval: 0.2 }), 202),
      [on(mapSessionOps.stopRouteRecording, { id: 7 })]: () => reply(floorMapSchema, saved),
    });
    await user.click(screen.getByText('Record route'));
    const interval = screen.getByTestId('map-session-interval');
    expect(interval).toHaveValue('0.5');
    await user.clear(interval);
    await user.type(interval, '9');
    await user.click(screen.getByTestId('map-session-start'));
    expect(await screen.findByText('Enter a value between 0.1 and 5 m')).toBeInTheDocument();
    expect(bodies(calls, 'POST', '/api/robots/7/route-recording')).toEqual([]);
    await user.clear(interval);
    await user.type(interval, '0.2');
    await user.click(screen.getByTestId('map-session-start'));
    await waitFor(() => expect(badge()).toHaveTextContent('Recording'));
    expect(bodies(calls, 'POST', '/api/robots/7/route-recording')).toEqual([{ floorId: 5, pointInterval: 0.2 }]);

    sock.receive({
      type: 'mapSession',
      robotId: 7,
      session: mapSession({ kind: 'recording', pointInterval: 0.2, points }),
    });
    expect(screen.getByTestId('map-session-progress')).toHaveTextContent('2 points recorded');
    expect(overlay().get().points).toEqual(points);

    // An unsaved local edit: the save warns, and keeps it as a draft.
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    await user.click(within(screen.getByTestId('waypoint-list')).getByText('Entrance'));
    await user.click(screen.getByTestId('panel-tab-properties'));
    await user.click(screen.getByTestId('delete-selected'));
    expect(screen.getByTestId('unsaved')).toHaveTextContent('Unsaved changes');

    await user.click(screen.getByTestId('map-session-save'));
    expect(await screen.findByTestId('map-session-unsaved')).toBeInTheDocument();
    await user.click(screen.getByTestId('map-session-confirm-route'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    const name = screen.getByTestId('map-session-route-name');
    await user.type(name, 'x'.repeat(41));
    await user.click(screen.getByTestId('map-session-confirm-route'));
    expect(await screen.findByText('Enter at most 40 characters')).toBeInTheDocument();
    expect(bodies(calls, 'POST', '/api/robots/7/route-recording/stop')).toEqual([]);
    await user.clear(name);
    await user.type(name, ' Loop A ');
    await user.click(screen.getByTestId('map-session-confirm-route'));

    await waitFor(() => expect(screen.getByTestId('status-revision')).toHaveTextContent('Revision 4'));
    expect(bodies(calls, 'POST', '/api/robots/7/route-recording/stop')).toEqual([{ save: true, name: 'Loop A' }]);
    expect(badge()).toHaveTextContent('Saved');
    expect(screen.getByTestId('draft-notice')).toHaveTextContent('kept as a draft');
    expect(window.localStorage.getItem('portal.mapEditorDraft.5')).not.toBeNull();
    const row = screen.getByTestId('route-row-1');
    expect(row).toHaveTextContent('Loop A');
    expect(within(row).getByRole('button', { current: true })).toBeInTheDocument();
    expect(overlay().get().points).toEqual([]);
  }, 20_000);

  it('is not offered to general operators (view only)', async () => {
    routes({});
    renderApp('/editor/floor/5', { session: makeSession(0), realtime });
    expect(await screen.findByTestId('read-only-badge', undefined, slow)).toBeInTheDocument();
    expect(screen.getByTestId('trial-run')).toBeInTheDocument();
    expect(screen.queryByText('Mapping & recording')).toBeNull();
    expect(screen.queryByTestId('map-session')).toBeNull();
  }, 20_000);
});
