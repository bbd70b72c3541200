import { useSyncExternalStore } from 'react';

/** Counts writes (POST/PATCH/PUT/DELETE) in flight; the global loading overlay shows while any runs. */
let inFlight = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const busyStore = {
  start(): void {
    inFlight += 1;
    emit();
  },
  end(): void {
    inFlight = Math.max(0, inFlight - 1);
    emit();
  },
  isBusy: (): boolean => inFlight > 0,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useBusy = (): boolean => useSyncExternalStore(busyStore.subscribe, busyStore.isBusy, busyStore.isBusy);
