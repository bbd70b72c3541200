import { floorDetailSchema, floorMapSchema, floorOps, mapOps, saveFloorMapBodySchema } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';
import type { Occupancy } from '../model/occupancy';
import { testFloor, testFloorMap } from '../test-fixtures';

// Konva needs a real canvas: the drawing is stubbed.
vi.mock('../canvas/map-canvas', async () => {
  const { useEffect } = await import('react');
  return {
    MapCanvas: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="map-canvas" />;
    },
  };
});

/**
 * The image (100 × 50 px at 0.1 m: x 0…10 m, y 0…5 m) as jsdom cannot read it: a wall in column 30
 * (x 3.0…3.1 m) and the pixel under the Entrance waypoint (1, 2) dark.
 */
vi.mock('../canvas/occupancy-loader', () => ({
  loadOccupancy: async (): Promise<Occupancy> => {
    const occupied = new Uint8Array(100 * 50);
    for (let row = 0; row < 50; row++) occupied[row * 100 + 30] = 1;
    occupied[29 * 100 + 10] = 1;
    return { width: 100, height: 50, resolution: 0.1, originX: 0, originY: 0, occupied };
  },
}));

/** Issue 12 item 10: a waypoint on an obstacle and an edge through a wall are warned of, not refused. */
const slow = { timeout: 5000 };
let realtime: FakeRealtime;
const image = { url: '/api/files/abc?sig=1', width: 100, height: 50, resolution: 0.1, originX: 0, originY: 0 };

function routes() {
  return mockApi({
    ...signedInRoutes(),
    [on(mapOps.getFloorMap, { id: 5 })]: () => reply(floorMapSchema, testFloorMap({ image })),
    [on(floorOps.getFloor, { id: 5 })]: () => reply(floorDetailSchema, testFloor),
    [on(mapOps.saveFloorMap, { id: 5 })]: (call) =>
      reply(
        floorMapSchema,
        testFloorMap({ image, revision: 4, document: saveFloorMapBodySchema.parse(call.body).document }),
      ),
  });
}

beforeEach(() => {
  realtime = new FakeRealtime();
});

describe('map editor warnings', () => {
  it('lists a waypoint on an obstacle and an edge through a wall, marks the waypoint, and still saves', async () => {
    const { calls } = routes();
    const { user } = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    const warnings = await screen.findByTestId('map-warnings', undefined, slow);
    expect(warnings).toHaveTextContent('Warnings (2)');
    expect(within(warnings).getByTestId('warning-waypoint-1')).toHaveTextContent(
      'Waypoint "Entrance" is on an obstacle',
    );
    expect(within(warnings).getByTestId('warning-edge-1')).toHaveTextContent(
      'The edge Entrance – Charger crosses an obstacle',
    );

    // The waypoint list marks the waypoint on the obstacle, not the other.
    await user.click(screen.getByTestId('panel-tab-waypoints'));
    expect(screen.getByTestId('waypoint-warning-1')).toHaveAttribute('title', 'On an obstacle of the map image');
    expect(screen.queryByTestId('waypoint-warning-2')).toBeNull();

    // A click on a warning selects its item.
    await user.click(within(warnings).getByTestId('warning-waypoint-1'));
    expect(within(screen.getByTestId('waypoint-row-1')).getByRole('button', { current: true })).toBeInTheDocument();

    // A warning, not an error: the map saves as it is.
    await user.click(screen.getByTestId('panel-tab-properties'));
    const name = screen.getByTestId('prop-name');
    await user.clear(name);
    await user.type(name, 'Gate{Enter}');
    await user.click(screen.getByTestId('save-map'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('status-revision')).toHaveTextContent('Revision 4'));
    expect(screen.getByTestId('map-warnings')).toHaveTextContent('Waypoint "Gate" is on an obstacle');
  }, 20_000);

  it('speaks Japanese on Japanese screens', async () => {
    routes();
    await i18n.changeLanguage('ja');
    renderApp('/editor/floor/5', { session: makeSession(2), realtime });
    const warnings = await screen.findByTestId('map-warnings', undefined, slow);
    expect(warnings).toHaveTextContent('警告（2 件）');
    expect(warnings).toHaveTextContent('ウェイポイント「Entrance」が障害物の上にあります');
    expect(warnings).toHaveTextContent('エッジ Entrance – Charger が障害物を横切っています');
  }, 20_000);
});
