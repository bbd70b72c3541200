import { lazy, Suspense, useState } from 'react';
import { useBusy } from '@/lib/busy';
import { useSession } from '@/lib/session';

// A lazy chunk: the login screen does not download the overlay until its first write (sign-in).
const BusyOverlay = lazy(() => import('./busy-overlay'));

/** Shown while any POST/PATCH/PUT/DELETE is in flight (spec section 7). */
export function GlobalBusyOverlay() {
  const busy = useBusy();
  const session = useSession();
  const [needed, setNeeded] = useState(false);
  if ((busy || session) && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <BusyOverlay visible={busy} />
    </Suspense>
  );
}
