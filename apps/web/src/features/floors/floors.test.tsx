import {
  buildingOps,
  floorOps,
  buildingSchema,
  floorDetailSchema,
  floorListSchema,
  MAP_IMAGE_MAX_BYTES,
  type FloorDetail,
} from '@portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { checkMapImage } from './map-image-check';

const slow = { timeout: 5000 };
const at = '2026-01-05T09:00:00.000Z';
const building = buildingSchema.parse({
  id: 10,
  name: 'Marunouchi Tower',
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
  createdAt: at,
  updatedAt: at,
});
const floor = (over: Partial<FloorDetail> = {}): FloorDetail => ({
  id: 5,
  name: 'Parking',
  buildingId: 10,
  organizationId: 1,
  type: 'parking',
  index: -1,
  img: null,
  imgWidth: null,
  imgHeight: null,
  ugomap: null,
  resolution: null,
  originX: null,
  originY: null,
  createdAt: at,
  updatedAt: at,
  ...over,
});

describe('floors', { timeout: 20_000 }, () => {
  it('lists floors top first with 1F / B1 / B2 labels', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building),
      [on(floorOps.listFloors, { id: 10 })]: () =>
        reply(floorListSchema, [
          { id: 1, name: 'Basement 2', buildingId: 10, type: 'parking', index: -1, img: null },
          { id: 2, name: 'Lobby', buildingId: 10, type: 'entrance', index: 1, img: null },
          { id: 3, name: 'Basement 1', buildingId: 10, type: 'commercial', index: 0, img: null },
        ]),
    });
    renderApp('/building/10?tab=floors', { session: makeSession(2) });
    const table = await screen.findByTestId('floor-table', {}, slow);
    const labels = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.firstChild?.textContent);
    expect(labels).toEqual(['1F', 'B1', 'B2']);
    expect(within(table).getByRole('link', { name: 'Lobby' })).toHaveAttribute('href', '/building/floor/2');
  });

  it('chooses the floor number by its label and sends the index (B2 = -1)', async () => {
    const api = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building),
      [on(floorOps.createFloor)]: () => reply(floorDetailSchema, floor({ id: 7 }), 201),
      [on(floorOps.getFloor)]: () => reply(floorDetailSchema, floor({ id: 7 })),
    });
    const app = renderApp('/building/10/floor/create', { session: makeSession(2) });

    const number = await screen.findByTestId('floor-number', {}, slow);
    expect(number).toHaveValue('1');
    expect(within(number).getByRole('option', { name: '1F' })).toHaveValue('1');
    expect(within(number).getByRole('option', { name: 'B1' })).toHaveValue('0');
    expect(within(number).getByRole('option', { name: 'B2' })).toHaveValue('-1');

    await app.user.type(screen.getByTestId('floor-name'), 'Parking');
    await app.user.selectOptions(screen.getByRole('combobox', { name: /Type/ }), 'parking');
    await app.user.selectOptions(number, 'B2');
    await app.user.click(screen.getByTestId('floor-save'));

    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Parking',
        type: 'parking',
        index: -1,
        resolution: null,
        originX: null,
        originY: null,
      }),
    );
    await waitFor(() => expect(app.location()).toBe('/building/floor/7'));
  });

  it('rejects a non-image or oversized file in the browser before uploading', async () => {
    const api = mockApi({ ...signedInRoutes(), [on(floorOps.getFloor)]: () => reply(floorDetailSchema, floor()) });
    renderApp('/building/floor/5', { session: makeSession(2) });
    await screen.findByTestId('map-image-choose', {}, slow);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Floor: B2 Parking');
    // A floor without a resolution gets the default one with its image: the upload says so.
    expect(screen.getByTestId('map-image-resolution-hint')).toHaveTextContent('Resolution defaults to 0.05 m/px');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');

    // The picker's accept filter can be bypassed (drag and drop, "all files"): the screen checks again.
    fireEvent.change(input, { target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByTestId('map-image-error')).toHaveTextContent('Choose a PNG or JPEG image. "notes.txt"');

    const big = new File(['x'], 'huge.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: MAP_IMAGE_MAX_BYTES + 1 });
    fireEvent.change(input, { target: { files: [big] } });
    await waitFor(() =>
      expect(screen.getByTestId('map-image-error')).toHaveTextContent(
        '"huge.png" is 10.0 MB; images may be at most 10 MB.',
      ),
    );
    expect(api.calls.some((c) => c.path.endsWith('/map-image'))).toBe(false);
  });

  it('a stale save opens the conflict dialog; "keep my values" keeps them and saves again with the stored version', async () => {
    let stored = floor();
    let patches = 0;
    const api = mockApi({
      ...signedInRoutes(),
      [on(floorOps.getFloor)]: () => reply(floorDetailSchema, stored),
      [on(floorOps.updateFloor)]: (call) => {
        patches += 1;
        if (patches === 1) {
          stored = floor({ name: 'Basement', resolution: 0.05, updatedAt: '2026-01-06T09:00:00.000Z' });
          return new Response(JSON.stringify({ error: { statusCode: 409, code: 'STALE_UPDATE', message: 'stale' } }), {
            status: 409,
          });
        }
        stored = floor({ ...(call.body as object), updatedAt: '2026-01-07T09:00:00.000Z' });
        return reply(floorDetailSchema, stored);
      },
    });
    const app = renderApp('/building/floor/5', { session: makeSession(2) });
    const name = await screen.findByTestId('floor-name', {}, slow);
    await app.user.clear(name);
    await app.user.type(name, 'Car park');
    await app.user.type(screen.getByRole('textbox', { name: /Origin X/ }), '1.50');
    await app.user.click(screen.getByTestId('floor-save'));
    await app.user.click(await screen.findByTestId('conflict-keep'));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).not.toBeInTheDocument());
    expect(screen.getByTestId('floor-name')).toHaveValue('Car park');
    expect(screen.getByRole('textbox', { name: /Origin X/ })).toHaveValue('1.50');

    await app.user.click(screen.getByTestId('floor-save'));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    const [first, second] = api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body);
    expect(first).toMatchObject({ name: 'Car park', originX: 1.5, updatedAt: at });
    expect(second).toMatchObject({ name: 'Car park', originX: 1.5, updatedAt: '2026-01-06T09:00:00.000Z' });
  });
});

describe('checkMapImage', () => {
  it('names a floor called after its level once ("1F", not "1F 1F")', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(floorOps.getFloor)]: () => reply(floorDetailSchema, floor({ name: '1F', index: 1 })),
    });
    renderApp('/building/floor/5', { session: makeSession(2) });
    await screen.findByTestId('map-image-choose', {}, slow);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Floor: 1F$/);
  });

  it('accepts PNG and JPEG up to the limit', () => {
    expect(checkMapImage({ name: 'a.png', type: 'image/png', size: MAP_IMAGE_MAX_BYTES })).toBeNull();
    expect(checkMapImage({ name: 'a.jpg', type: 'image/jpeg', size: 1 })).toBeNull();
    expect(checkMapImage({ name: 'a.gif', type: 'image/gif', size: 1 })).toBe('wrongType');
    expect(checkMapImage({ name: 'a.png', type: 'image/png', size: MAP_IMAGE_MAX_BYTES + 1 })).toBe('tooLarge');
  });
});
