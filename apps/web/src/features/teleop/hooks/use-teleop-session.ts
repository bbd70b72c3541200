import { useEffect, useState, useSyncExternalStore } from 'react';
import { useRealtime } from '@/lib/realtime';
import type { GamepadLike } from '../lib/control-input';
import {
  TeleopSession,
  type PeerFactory,
  type TeleopDebug,
  type TeleopSignalling,
  type TeleopSnapshot,
} from '../lib/teleop-session';

declare global {
  interface Window {
    /** Read by end-to-end tests and the benchmark: session id, role, control messages sent. */
    __teleopDebug?: TeleopDebug;
  }
}

const getGamepads = (): ReadonlyArray<GamepadLike | null> =>
  typeof navigator !== 'undefined' && typeof navigator.getGamepads === 'function' ? navigator.getGamepads() : [];

export interface UseTeleopSessionOptions {
  signalling?: TeleopSignalling;
  createPeer?: PeerFactory;
}

/**
 * The screen's teleop session: started on mount, left on unmount and when the page is hidden for
 * good (pagehide), joined again when the page comes back from the back-forward cache. Mount it
 * with a key per robot and mode.
 */
export function useTeleopSession(
  robotId: number,
  want: 'control' | 'watch',
  options: UseTeleopSessionOptions = {},
): { session: TeleopSession; snapshot: TeleopSnapshot } {
  const realtime = useRealtime();
  const [session] = useState(
    () =>
      new TeleopSession({
        robotId,
        want,
        signalling: options.signalling ?? realtime,
        getGamepads,
        ...(options.createPeer ? { createPeer: options.createPeer } : {}),
      }),
  );

  useEffect(() => {
    session.start();
    window.__teleopDebug = session.debug;
    const onPageHide = () => session.leave();
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) session.reconnect();
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      session.dispose();
      if (window.__teleopDebug === session.debug) delete window.__teleopDebug;
    };
  }, [session]);

  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return { session, snapshot };
}
