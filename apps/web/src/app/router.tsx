import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { registerAuthHandlers } from './auth-handlers';
import { createRoutes } from './routes-config';

export function AppRouter() {
  const queryClient = useQueryClient();
  const [router] = useState(() => createBrowserRouter(createRoutes()));
  useEffect(() => registerAuthHandlers(router, queryClient), [router, queryClient]);
  return <RouterProvider router={router} />;
}
