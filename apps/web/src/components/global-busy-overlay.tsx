import { LoadingOverlay } from '@mantine/core';
import { useBusy } from '@/lib/busy';

/** Shown while any POST/PATCH/PUT/DELETE is in flight (spec section 7). */
export function GlobalBusyOverlay() {
  const busy = useBusy();
  return (
    <LoadingOverlay visible={busy} pos="fixed" zIndex={3000} overlayProps={{ blur: 1 }} data-testid="global-busy" />
  );
}
