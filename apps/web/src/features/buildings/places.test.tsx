import { buildingListSchema, buildingOps, buildingSchema, ipRestrictionSchema } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { makeBuilding } from './test-data';

/** The first visit loads the lazy route's modules. */
const slow = { timeout: 10_000 };

const formRoutes = (stored = makeBuilding()): Routes => ({
  ...signedInRoutes(),
  [on(buildingOps.getBuilding)]: () => reply(buildingSchema, stored),
  [on(buildingOps.getIpRestriction)]: () =>
    reply(ipRestrictionSchema, { enabled: false, rules: [], clientIp: '192.0.2.5', clientIpAllowed: false }),
  [on(buildingOps.updateBuilding)]: (call) =>
    reply(buildingSchema, { ...stored, ...(call.body as object), updatedAt: '2026-02-01T00:00:00.000Z' }),
});

describe('building prefecture and time zone', { timeout: 60_000 }, () => {
  it('offers the 47 prefectures by name and saves the chosen one’s code with the chosen time zone', async () => {
    const { calls } = mockApi(formRoutes());
    const app = renderApp('/building/10', { session: makeSession(2) });

    const prefecture = await screen.findByTestId('building-prefecture', {}, slow);
    // Stored as '13', shown by its name.
    expect(prefecture).toHaveValue('Tokyo');
    await app.user.clear(prefecture);
    await app.user.type(prefecture, 'Osa');
    await app.user.click(await screen.findByRole('option', { name: 'Osaka' }));

    const zone = screen.getByTestId('building-time-zone');
    expect(zone).toHaveValue('Asia/Tokyo');
    await app.user.clear(zone);
    await app.user.type(zone, 'New_Y');
    await app.user.click(await screen.findByRole('option', { name: 'America/New_York' }));

    await app.user.click(screen.getByTestId('building-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      prefecture: '27',
      timeZone: 'America/New_York',
    });
  });

  it('names prefectures in Japanese on Japanese screens', async () => {
    mockApi(formRoutes());
    await i18n.changeLanguage('ja');
    const app = renderApp('/building/10', { session: makeSession(2) });
    const prefecture = await screen.findByTestId('building-prefecture', {}, slow);
    expect(prefecture).toHaveValue('東京都');
    await app.user.clear(prefecture);
    await app.user.type(prefecture, '北海');
    expect(await screen.findByRole('option', { name: '北海道' })).toBeInTheDocument();
  });

  it('shows text stored before prefectures were a list, and asks for a prefecture before saving', async () => {
    const { calls } = mockApi(formRoutes(makeBuilding({ prefecture: 'Atlantis' })));
    const app = renderApp('/building/10', { session: makeSession(2) });
    const prefecture = await screen.findByTestId('building-prefecture', {}, slow);
    expect(prefecture).toHaveValue('Atlantis (not a prefecture)');
    expect(screen.getByText(/“Atlantis” was entered before prefectures became a list/)).toBeInTheDocument();

    await app.user.click(screen.getByTestId('building-save'));
    expect(await screen.findByText('Choose a prefecture from the list')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('lists buildings with the prefecture’s name in the UI language', async () => {
    const rows = buildingListSchema.parse([
      makeBuilding(),
      makeBuilding({ id: 11, name: 'Old Row', prefecture: 'Atlantis', city: null }),
    ]);
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () =>
        new Response(JSON.stringify(rows), { status: 200, headers: { 'X-Total-Count': '2' } }),
    });
    const view = renderApp('/building/list', { session: makeSession(2) });
    expect(await screen.findByText('Old Row', {}, slow)).toBeInTheDocument();
    // Text stored before prefectures were a list is shown as written.
    expect(screen.getByText('Atlantis')).toBeInTheDocument();
    expect(screen.getByText('Tokyo Chiyoda')).toBeInTheDocument();

    await i18n.changeLanguage('ja');
    expect(await screen.findByText('東京都 Chiyoda')).toBeInTheDocument();
    view.unmount();
  });
});
