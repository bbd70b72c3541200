import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Session } from '@portal/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { registerAuthHandlers } from '@/app/auth-handlers';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/routes-config';
import { RealtimeProvider, type Realtime } from '@/lib/realtime';
import { sessionStore } from '@/lib/session';

/**
 * Renders the real route tree at `path` (memory history), optionally signed in; `realtime` replaces
 * the tab's realtime client (a `FakeRealtime` from testing/fake-realtime.ts).
 */
export function renderApp(
  path: string,
  options: { session?: Session; user?: Parameters<typeof userEvent.setup>[0]; realtime?: Realtime } = {},
) {
  if (options.session) sessionStore.save(options.session);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  registerAuthHandlers(router, queryClient);
  const user = userEvent.setup(options.user);
  const routes = <RouterProvider router={router} />;
  const view = render(
    <AppProvider queryClient={queryClient} env="test">
      {options.realtime ? <RealtimeProvider client={options.realtime}>{routes}</RealtimeProvider> : routes}
    </AppProvider>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, user, queryClient, location };
}
