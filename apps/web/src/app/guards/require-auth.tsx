import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useSession, type StoredSession } from '@/lib/session';

interface RequireAuthProps {
  children: (session: StoredSession) => ReactNode;
}

/** Everything outside /auth/* needs a session; otherwise login, keeping where the user was going. */
export function RequireAuth({ children }: RequireAuthProps) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to={paths.auth.login.getHref(location.pathname + location.search)} replace />;
  return <>{children(session)}</>;
}
