import { useCallback, useSyncExternalStore } from 'react';
import type { Channel, EditorStore } from '../model/store';

/** Re-renders when a channel of the store changes (components pick the channel they show). */
export function useStoreChannel(store: EditorStore, channel: Channel): number {
  const subscribe = useCallback((cb: () => void) => store.subscribe(channel, cb), [store, channel]);
  return useSyncExternalStore(subscribe, () => store.version(channel));
}
