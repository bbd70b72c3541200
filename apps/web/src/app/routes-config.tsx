import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { laterRoutes, paths } from '@/config/paths';
import { RootLayout } from './routes/root';

/** Every route of spec section 2; screens load lazily so the login route stays small. */
export function createRoutes(): RouteObject[] {
  const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });
  return [
    {
      id: 'root',
      element: <RootLayout />,
      HydrateFallback: PageLoader,
      children: [
        redirect(paths.root.path, paths.robot.control.getHref()),
        {
          path: paths.auth.root.path,
          lazy: () => import('./routes/auth/auth-layout'),
          children: [
            { index: true, element: <Navigate to={paths.auth.login.getHref()} replace /> },
            { path: paths.auth.login.path, lazy: () => import('./routes/auth/login') },
            { path: paths.auth.register.path, lazy: () => import('./routes/auth/register') },
            { path: paths.auth.error.path, lazy: () => import('./routes/auth/error') },
            { path: paths.auth.initData.path, lazy: () => import('./routes/auth/init-data') },
          ],
        },
        { path: paths.term.agreement.path, lazy: () => import('./routes/term-agreement') },
        {
          id: 'signed-in',
          lazy: () => import('./routes/app-layout'),
          children: [
            { path: paths.robot.control.path, lazy: () => import('./routes/robot-control') },
            redirect(paths.my.root.path, paths.my.profile.getHref()),
            { path: paths.my.profile.path, lazy: () => import('./routes/my/profile') },
            { path: paths.my.chpwd.path, lazy: () => import('./routes/my/chpwd') },
            { path: paths.my.devices.path, lazy: () => import('./routes/my/devices') },
            redirect('/my/messages', paths.my.messages.getHref(1)),
            { path: paths.my.messages.path, lazy: () => import('./routes/my/messages') },
            redirect('/my/audit-logs', paths.my.auditLogs.getHref(1)),
            { path: paths.my.auditLogs.path, lazy: () => import('./routes/my/audit-logs') },
            { path: paths.my.announcements.path, lazy: () => import('./routes/my/announcements') },
            { path: paths.my.versions.path, lazy: () => import('./routes/my/versions') },
            { path: paths.my.contract.path, lazy: () => import('./routes/my/contract') },
            redirect(paths.schedule.root.path, paths.schedule.calWeek.getHref()),
            {
              path: paths.console.path,
              handle: { section: 'console' },
              lazy: () => import('./routes/console'),
            },
            { path: paths.system.deliveries.path, lazy: () => import('./routes/system/deliveries') },
            ...laterRoutes.map((r): RouteObject => ({
              path: r.path,
              handle: { section: r.section },
              lazy: () => import('./routes/coming-soon'),
            })),
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
