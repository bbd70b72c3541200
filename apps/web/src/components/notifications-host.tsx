import { lazy, Suspense } from 'react';
import { useNotificationsRequested } from '@/lib/notify';
import { useSession } from '@/lib/session';

const Notifications = lazy(() => import('./notifications-view'));

/** Mounts Mantine's notifications (a lazy chunk) once signed in or once a message was shown. */
export function NotificationsHost() {
  const requested = useNotificationsRequested();
  const session = useSession();
  if (!requested && !session) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}
