import { buildingListSchema, buildingOps, buildingSchema } from '@portal/contract';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BuildingFilter } from '@/components/building-filter';
import { useUpdateBuilding } from '@/features/buildings/api/update-building';
import { at, makeBuilding } from '@/features/buildings/test-data';
import { useActiveBuildings } from '@/features/location/api/get-buildings';
import { sessionStore } from '@/lib/session';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { AppProvider } from './provider';

/** Every view of buildings lives under the buildings root key, so one change refreshes them all. */
describe('building views', { timeout: 20_000 }, () => {
  it('shows a renamed building at once, in the filter and in the location switcher', async () => {
    let name = 'Marunouchi Tower';
    const building = () => makeBuilding({ name });
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () =>
        new Response(JSON.stringify(buildingListSchema.parse([building()])), {
          status: 200,
          headers: { 'X-Total-Count': '1' },
        }),
      [on(buildingOps.updateBuilding)]: (call) => {
        name = (call.body as { name: string }).name;
        return reply(buildingSchema, building());
      },
    });

    const renamed = {
      name: 'Marunouchi Tower East',
      prefecture: '13',
      city: 'Chiyoda',
      address: '1-1',
      postalCode: '100-0005',
      latitude: 35.68,
      longitude: 139.76,
      organizationId: 1,
      status: 1,
      updatedAt: at,
    } as const;

    function Screen() {
      const update = useUpdateBuilding();
      const active = useActiveBuildings();
      return (
        <>
          <BuildingFilter allowAll />
          <ul data-testid="switcher">
            {(active.data ?? []).map((b) => (
              <li key={b.id}>{b.name}</li>
            ))}
          </ul>
          <button type="button" onClick={() => update.mutate({ id: 10, body: renamed })}>
            rename
          </button>
        </>
      );
    }

    sessionStore.save(makeSession(2));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    const router = createMemoryRouter([{ path: '/', element: <Screen /> }], { initialEntries: ['/'] });
    render(
      <AppProvider queryClient={queryClient} env="test">
        <RouterProvider router={router} />
      </AppProvider>,
    );

    await screen.findByTestId('building-filter');
    await screen.findByRole('option', { name: 'Marunouchi Tower' });
    await waitFor(() => expect(screen.getByTestId('switcher')).toHaveTextContent('Marunouchi Tower'));

    await userEvent.click(screen.getByRole('button', { name: 'rename' }));

    // Both lists are still fresh (60 s and 5 min): only the buildings root invalidation refreshes them.
    await screen.findByRole('option', { name: 'Marunouchi Tower East' });
    expect(screen.queryByRole('option', { name: 'Marunouchi Tower' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('switcher')).toHaveTextContent('Marunouchi Tower East'));
  });
});
