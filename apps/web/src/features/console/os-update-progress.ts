import { useCallback, useState } from 'react';

/**
 * Where an OS update stands, read from what the robot reports (spec section 4: the robot restarts
 * afterwards): `requested` (the portal told it) -> `updating` (it reports `updating`) -> `restarting`
 * (offline) -> `done` (back online, not updating). An update started elsewhere is picked up when the
 * robot reports `updating`.
 */
export type OsUpdatePhase = 'idle' | 'requested' | 'updating' | 'restarting' | 'done';

export interface OsUpdateProgress {
  phase: OsUpdatePhase;
  /** The OS version the robot reported when the update started. */
  fromVersion: string | null;
}

/** What the robot reports that the progress follows. */
export interface OsUpdateSnapshot {
  online: boolean;
  updating: boolean;
  osVersion: string | null;
}

export const idleOsUpdate: OsUpdateProgress = { phase: 'idle', fromVersion: null };

/** The next progress for what the robot reports now (the same object when nothing changed). */
export function advanceOsUpdate(progress: OsUpdateProgress, robot: OsUpdateSnapshot): OsUpdateProgress {
  const to = (phase: OsUpdatePhase): OsUpdateProgress => (phase === progress.phase ? progress : { ...progress, phase });
  switch (progress.phase) {
    case 'idle':
    case 'done':
      return robot.updating
        ? { phase: robot.online ? 'updating' : 'restarting', fromVersion: robot.osVersion ?? progress.fromVersion }
        : progress;
    case 'requested':
      if (!robot.online) return to('restarting');
      return robot.updating ? to('updating') : progress;
    case 'updating':
      if (!robot.online) return to('restarting');
      return robot.updating ? progress : to('done');
    case 'restarting':
      // Back online: the first state after the restart may still say `updating`; the next one decides.
      if (!robot.online) return progress;
      return to(robot.updating ? 'updating' : 'done');
  }
}

/** True while an update is under way (the update button stays disabled). */
export const osUpdateRunning = (phase: OsUpdatePhase): boolean =>
  phase === 'requested' || phase === 'updating' || phase === 'restarting';

/**
 * Follows an OS update through the robot's reports (null while none has arrived). `start` is called
 * when the server accepted the request; `dismiss` hides the finished progress.
 */
export function useOsUpdateProgress(robot: OsUpdateSnapshot | null) {
  const [progress, setProgress] = useState<OsUpdateProgress>(idleOsUpdate);
  // Derived from each report during render (no effect round trip, no missed intermediate phase).
  const next = robot ? advanceOsUpdate(progress, robot) : progress;
  if (next !== progress) setProgress(next);
  const start = useCallback((fromVersion: string | null) => setProgress({ phase: 'requested', fromVersion }), []);
  const dismiss = useCallback(() => setProgress(idleOsUpdate), []);
  return { progress: next, start, dismiss };
}
