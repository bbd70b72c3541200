import { mapOps, waypointEntrySchema, type WaypointEntry } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

// Konva needs a real canvas (the route tree loads the editor too): the drawing is stubbed.
vi.mock('./canvas/map-canvas', () => ({ MapCanvas: () => <div data-testid="map-canvas" /> }));

const slow = { timeout: 15_000 };

const waypoint = (over: Partial<WaypointEntry> = {}): WaypointEntry =>
  waypointEntrySchema.parse({
    id: 7,
    name: 'Charger',
    x: 1,
    y: 2,
    theta: 0,
    type: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

describe('waypoint form', () => {
  it('a stale edit opens the conflict dialog; kept values are saved again over the newer version', async () => {
    let stored = waypoint();
    let saves = 0;
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(mapOps.getWaypoint, { floorId: 5, id: 7 })]: () => reply(waypointEntrySchema, stored),
      [on(mapOps.updateWaypoint, { floorId: 5, id: 7 })]: (call) => {
        saves += 1;
        if (saves === 1) return replyError('STALE_UPDATE');
        stored = waypoint({ ...(call.body as object), updatedAt: '2026-01-03T00:00:00.000Z' });
        return reply(waypointEntrySchema, stored);
      },
    });
    const { user } = renderApp('/waypoint/5/7', { session: makeSession(2) });
    const name = await screen.findByRole('textbox', { name: /Name/ }, slow);
    await user.clear(name);
    await user.type(name, 'Dock');
    stored = waypoint({ name: 'Theirs', updatedAt: '2026-01-02T00:00:00.000Z' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(await screen.findByTestId('conflict-keep', {}, slow));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).toBeNull());
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('Dock');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves).toBe(2));
    const sent = calls.filter((c) => c.method === 'PUT').map((c) => c.body as { name: string; updatedAt: string });
    expect(sent).toEqual([
      expect.objectContaining({ name: 'Dock', updatedAt: '2026-01-01T00:00:00.000Z' }),
      expect.objectContaining({ name: 'Dock', updatedAt: '2026-01-02T00:00:00.000Z' }),
    ]);
  }, 45_000);

  it('is read-only for general operators: locked fields, no save, the way back to the list', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(mapOps.getWaypoint, { floorId: 5, id: 7 })]: () => reply(waypointEntrySchema, waypoint()),
    });
    const { user, location } = renderApp('/waypoint/5/7', { session: makeSession(0) });
    expect(await screen.findByRole('textbox', { name: /Name/ }, slow)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Back to list' }));
    await waitFor(() => expect(location()).toBe('/waypoint/5/list'));
  }, 45_000);
});
