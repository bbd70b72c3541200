import { floorDetailSchema, floorMapSchema, floorOps, mapOps, saveFloorMapBodySchema } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError, type ApiCall } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';
import { testDocument, testFloor, testFloorMap } from './test-fixtures';

// Konva needs a real canvas: the screen is tested with the drawing stubbed (the model has its own tests).
vi.mock('./canvas/map-canvas', async () => {
  const { useEffect } = await import('react');
  return {
    MapCanvas: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="map-canvas" />;
    },
  };
});

/** Live updates: none arrive in these tests. */
let realtime: FakeRealtime;

const slow = { timeout: 5000 };

const document = testDocument;
const floorMap = testFloorMap;
const floor = testFloor;

function routes(put: (call: ApiCall) => Response) {
  return mockApi({
    ...signedInRoutes(),
    [on(mapOps.getFloorMap, { id: 5 })]: () => reply(floorMapSchema, floorMap()),
    [on(floorOps.getFloor, { id: 5 })]: () => reply(floorDetailSchema, floor),
    [on(mapOps.saveFloorMap, { id: 5 })]: put,
  });
}

beforeEach(() => {
  realtime = new FakeRealtime();
});

describe('map editor screen', () => {
  it('loads the floor map, lists its waypoints and saves with the base revision', async () => {
    const { calls } = routes((call) => {
      const body = saveFloorMapBodySchema.parse(call.body);
      return reply(floorMapSchema, floorMap({ revision: 4, document: body.document }));
    });
    const { user } = renderApp('/editor/floor/5', { session: makeSession(2), realtime });

    expect(await screen.findByRole('heading', { name: /Office 3F/ }, slow)).toBeInTheDocument();
    expect(screen.getByTestId('status-revision')).toHaveTextContent('Revision 3');
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    const list = screen.getByTestId('waypoint-list');
    expect(within(list).getByText('Entrance')).toBeInTheDocument();
    expect(within(list).getByText('Charger')).toBeInTheDocument();

    // Select a waypoint from the list and rename it in the properties.
    await user.click(within(list).getByText('Charger'));
    await user.click(screen.getByTestId('panel-tab-properties'));
    const name = screen.getByTestId('prop-name');
    await user.clear(name);
    await user.type(name, 'Dock{Enter}');
    expect(screen.getByTestId('unsaved')).toHaveTextContent('Unsaved changes');

    await user.click(screen.getByTestId('save-map'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    const body = saveFloorMapBodySchema.parse(put.body);
    expect(body.baseRevision).toBe(3);
    expect(body.overwrite).toBe(false);
    expect(body.document.waypoints[1]).toMatchObject({ id: 2, name: 'Dock' });
    await waitFor(() => expect(screen.getByTestId('status-revision')).toHaveTextContent('Revision 4'));
    expect(screen.getByTestId('unsaved')).toHaveTextContent('All changes saved');
    expect(window.localStorage.getItem('portal.mapEditorDraft.5')).toBeNull();
  });

  it('asks before overwriting a newer revision, then overwrites', async () => {
    let attempts = 0;
    const { calls } = routes((call) => {
      attempts++;
      const body = saveFloorMapBodySchema.parse(call.body);
      if (!body.overwrite)
        return replyError('STALE_UPDATE', [{ path: 'baseRevision', message: 'validation.staleMap' }]);
      return reply(floorMapSchema, floorMap({ revision: 5, document: body.document }));
    });
    const { user } = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    await screen.findByTestId('editor-toolbar', undefined, slow);
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    await user.click(within(screen.getByTestId('waypoint-list')).getByText('Entrance'));
    await user.click(screen.getByTestId('panel-tab-properties'));
    await user.click(screen.getByTestId('delete-selected'));
    await user.click(screen.getByTestId('save-map'));
    expect(await screen.findByTestId('stale-body')).toHaveTextContent('Revision 3 was saved by Taro Suzuki');
    await user.click(screen.getByTestId('stale-overwrite'));
    await waitFor(() => expect(attempts).toBe(2));
    const last = saveFloorMapBodySchema.parse(calls.filter((c) => c.method === 'PUT').at(-1)!.body);
    expect(last.overwrite).toBe(true);
    expect(last.document.waypoints.map((w) => w.id)).toEqual([2]);
    expect(last.document.edges).toEqual([]);
  });

  it('shows translated validation details of a refused save', async () => {
    routes(() =>
      replyError('VALIDATION_FAILED', [{ path: 'document.waypoints.1.x', message: 'validation.outsideMap' }]),
    );
    const { user } = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    await screen.findByTestId('editor-toolbar', undefined, slow);
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    await user.click(within(screen.getByTestId('waypoint-list')).getByText('Entrance'));
    await user.click(screen.getByTestId('panel-tab-properties'));
    const name = screen.getByTestId('prop-name');
    await user.clear(name);
    await user.type(name, 'Gate{Enter}');
    await user.click(screen.getByTestId('save-map'));
    expect(await screen.findByTestId('save-problem')).toHaveTextContent('Waypoint Charger (x): Outside the map image');
  });

  it('restores a draft left in the browser, and opens read-only for general operators', async () => {
    window.localStorage.setItem(
      'portal.mapEditorDraft.5',
      JSON.stringify({
        savedAt: '2026-01-10T02:00:00.000Z',
        baseRevision: 3,
        document: { ...document, waypoints: document.waypoints.slice(0, 1), edges: [] },
      }),
    );
    routes(() => replyError('INTERNAL'));
    const first = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    expect(await screen.findByTestId('draft-notice', undefined, slow)).toHaveTextContent('Unsaved changes from');
    await first.user.click(screen.getByTestId('panel-tab-waypoints'));
    expect(within(screen.getByTestId('waypoint-list')).queryByText('Charger')).toBeNull();
    await first.user.click(screen.getByTestId('discard-draft'));
    expect(within(screen.getByTestId('waypoint-list')).getByText('Charger')).toBeInTheDocument();
    expect(window.localStorage.getItem('portal.mapEditorDraft.5')).toBeNull();
    first.unmount();

    renderApp('/editor/floor/5', { session: makeSession(0), realtime });
    expect(await screen.findByTestId('read-only-badge', undefined, slow)).toBeInTheDocument();
    expect(screen.queryByTestId('save-map')).toBeNull();
    expect(screen.queryByTestId('tool-waypoint')).toBeNull();
  });

  it('v2 shows a beta badge', async () => {
    routes(() => replyError('INTERNAL'));
    renderApp('/editor/v2/5/floor', { session: makeSession(2), realtime });
    expect(await screen.findByTestId('beta-badge', undefined, slow)).toHaveTextContent('Beta');
  });

  it('asks before a menu entry leaves unsaved edits, and leaves at once once they are saved', async () => {
    routes((call) => {
      const body = saveFloorMapBodySchema.parse(call.body);
      return reply(floorMapSchema, floorMap({ revision: 4, document: body.document }));
    });
    const { user, location } = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    await screen.findByTestId('editor-toolbar', undefined, slow);
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    await user.click(within(screen.getByTestId('waypoint-list')).getByText('Charger'));
    await user.click(screen.getByTestId('panel-tab-properties'));
    await user.clear(screen.getByTestId('prop-name'));
    await user.type(screen.getByTestId('prop-name'), 'Dock{Enter}');
    expect(screen.getByTestId('unsaved')).toHaveTextContent('Unsaved changes');

    // A menu entry: the question, and staying keeps the edit.
    await user.click(screen.getByTestId('nav-buildings'));
    expect(await screen.findByText('Leave without saving?')).toBeInTheDocument();
    expect(location()).toBe('/editor/floor/5');
    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByText('Leave without saving?')).not.toBeInTheDocument());
    expect(location()).toBe('/editor/floor/5');
    expect(screen.getByTestId('prop-name')).toHaveValue('Dock');

    // Saved: the menu entry leaves without asking.
    await user.click(screen.getByTestId('save-map'));
    await waitFor(() => expect(screen.getByTestId('unsaved')).toHaveTextContent('All changes saved'));
    await user.click(screen.getByTestId('nav-buildings'));
    await waitFor(() => expect(location()).toBe('/building/list'));
    expect(screen.queryByText('Leave without saving?')).not.toBeInTheDocument();
  }, 20_000);
});
