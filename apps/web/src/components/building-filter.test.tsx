import { buildingListSchema, buildingOps, type Filter } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, type ApiCall } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const buildings = buildingListSchema.parse([
  { id: 10, name: 'Marunouchi Tower' },
  { id: 11, name: 'Shinjuku Annex' },
]);
const route = () => (_call: ApiCall) =>
  new Response(JSON.stringify(buildings), { status: 200, headers: { 'X-Total-Count': '2' } });

describe('BuildingFilter', { timeout: 20_000 }, () => {
  it('preselects the building of the URL and writes a new choice to the URL', async () => {
    const api = mockApi({ ...signedInRoutes(), [on(buildingOps.listBuildings)]: route() });
    const app = renderApp('/building/list?building=11&page=3', { session: makeSession(2) });

    const select = await screen.findByTestId('building-filter', {}, { timeout: 5000 });
    await waitFor(() => expect(select).toHaveValue('11'));
    expect(screen.getByRole('option', { name: 'All buildings' })).toBeInTheDocument();

    const optionsCall = api.calls.find((c) => c.search.get('filter')?.includes('fields'));
    expect(JSON.parse(optionsCall?.search.get('filter') ?? '{}') as Filter).toEqual({
      where: { status: 1 },
      order: 'name ASC',
      fields: ['id', 'name'],
    });

    await app.user.selectOptions(select, '10');
    await waitFor(() => expect(app.location()).toBe('/building/list?building=10'));
    await app.user.selectOptions(select, '');
    await waitFor(() => expect(app.location()).toBe('/building/list'));
  });
});
