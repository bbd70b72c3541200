import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

/**
 * Asking before leaving a page with unsaved changes.
 *
 * In-app navigation is held by React Router's blocker (the app runs on a data router) and the question
 * is shown by `<LeaveGuardDialog>` (components/form-page/leave-guard-dialog.tsx, mounted once by the
 * app provider); closing or reloading the tab gets the browser's own question (`beforeunload`).
 * Only a change of page asks: a new query string on the same page (a tab, a filter) does not.
 */

interface PendingLeave {
  leave: () => void;
  stay: () => void;
}

let pending: PendingLeave | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function setPending(next: PendingLeave | null): void {
  pending = next;
  emit();
}

/** The navigation waiting for an answer (null: none); the dialog's store. */
export const useLeaveQuestion = (): PendingLeave | null =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => pending,
    () => pending,
  );

let passes = 0;

/**
 * The navigations started in the same task leave without asking: a form that has just been saved
 * (or explicitly cancelled) navigates away while its fields still count as changed.
 */
export function allowLeave(): void {
  passes += 1;
  setTimeout(() => {
    passes = Math.max(0, passes - 1);
  }, 0);
}

/**
 * The guards with unsaved changes on the page now. A page may hold several forms (a list with an
 * inline editor), each with its guard; React Router honours only the last blocker registered, so
 * every blocker asks whether ANY guard of the page is dirty, not only its own.
 */
const dirtyGuards = new Set<object>();

/** Asks before leaving the page while `dirty` (in-app links, back/forward, closing the tab). */
export function useLeaveGuard(dirty: boolean): void {
  const [token] = useState(() => ({}));
  useEffect(() => {
    if (!dirty) return;
    dirtyGuards.add(token);
    return () => {
      dirtyGuards.delete(token);
    };
  }, [dirty, token]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyGuards.size > 0 && passes === 0 && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const question: PendingLeave = {
      leave: () => {
        setPending(null);
        blocker.proceed();
      },
      stay: () => {
        setPending(null);
        blocker.reset();
      },
    };
    setPending(question);
    return () => {
      if (pending === question) setPending(null);
    };
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show (or want) a text; current ones show their own.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
