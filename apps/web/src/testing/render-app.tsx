import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Session } from '@portal/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { registerAuthHandlers } from '@/app/auth-handlers';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/routes-config';
import { sessionStore } from '@/lib/session';

/** Renders the real route tree at `path` (memory history), optionally signed in. */
export function renderApp(
  path: string,
  options: { session?: Session; user?: Parameters<typeof userEvent.setup>[0] } = {},
) {
  if (options.session) sessionStore.save(options.session);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  registerAuthHandlers(router, queryClient);
  const user = userEvent.setup(options.user);
  const view = render(
    <AppProvider queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, user, queryClient, location };
}
