import type { NotificationData } from '@mantine/notifications';
import { useSyncExternalStore } from 'react';

/**
 * Notifications without @mantine/notifications in the first download: the library (and its
 * <Notifications> host, see components/notifications-host.tsx) loads on the first message or once
 * signed in. Messages shown meanwhile wait in the library's store and appear when the host mounts.
 */
let requested = false;
const listeners = new Set<() => void>();

const loadNotifications = () => import('@mantine/notifications');

export function showNotification(data: NotificationData): void {
  if (!requested) {
    requested = true;
    listeners.forEach((l) => l());
  }
  void loadNotifications().then(({ notifications }) => notifications.show(data));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const isRequested = () => requested;

/** True once something asked to show a notification. */
export const useNotificationsRequested = (): boolean => useSyncExternalStore(subscribe, isRequested, isRequested);
