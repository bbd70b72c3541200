import { Alert } from '@mantine/core';
import { isAdmin, isSystemAdmin } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

/** /console needs the administrator role, else the user goes to login (spec section 6). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session || !isAdmin(session.type))
    return (
      <Navigate
        to={paths.auth.login.getHref(location.pathname + location.search)}
        replace
        // A signed-in non-administrator is told why the login page shows (the spec keeps the redirect).
        state={session ? { reason: 'adminOnly' } : undefined}
      />
    );
  return <>{children}</>;
}

export function Forbidden({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" data-testid="forbidden">
      {message ?? t('common.forbidden')}
    </Alert>
  );
}

/** System administrator pages: others see a translated "no permission" message. */
export function RequireSystemAdmin({ children, message }: { children: ReactNode; message?: string }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to={paths.auth.login.getHref(location.pathname + location.search)} replace />;
  if (!isSystemAdmin(session.type)) return <Forbidden message={message} />;
  return <>{children}</>;
}
