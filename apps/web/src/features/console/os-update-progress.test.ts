import { describe, expect, it } from 'vitest';
import { advanceOsUpdate, idleOsUpdate, type OsUpdateProgress, type OsUpdateSnapshot } from './os-update-progress';

const robot = (online: boolean, updating: boolean, osVersion: string | null = '1.0'): OsUpdateSnapshot => ({
  online,
  updating,
  osVersion,
});

/** The phases the progress goes through for a sequence of reports. */
function phases(start: OsUpdateProgress, reports: OsUpdateSnapshot[]): string[] {
  let p = start;
  return reports.map((r) => (p = advanceOsUpdate(p, r)).phase);
}

describe('OS update progress', () => {
  const requested: OsUpdateProgress = { phase: 'requested', fromVersion: '1.0' };

  it('goes requested -> updating -> restarting -> done', () => {
    expect(
      phases(requested, [robot(true, false), robot(true, true), robot(false, true), robot(true, false, '1.1')]),
    ).toEqual(['requested', 'updating', 'restarting', 'done']);
  });

  it('waits out a stale "updating" right after the restart', () => {
    expect(phases(requested, [robot(false, true), robot(true, true), robot(true, false, '1.1')])).toEqual([
      'restarting',
      'updating',
      'done',
    ]);
  });

  it('finishes without a restart when the robot stops updating online', () => {
    expect(phases(requested, [robot(true, true), robot(true, false)])).toEqual(['updating', 'done']);
  });

  it('picks up an update started elsewhere, remembering the version it started from', () => {
    const p = advanceOsUpdate(idleOsUpdate, robot(true, true, '2.0'));
    expect(p).toEqual({ phase: 'updating', fromVersion: '2.0' });
    expect(advanceOsUpdate(idleOsUpdate, robot(false, false))).toBe(idleOsUpdate);
  });

  it('answers the same object when nothing changed', () => {
    expect(advanceOsUpdate(requested, robot(true, false))).toBe(requested);
    const done: OsUpdateProgress = { phase: 'done', fromVersion: '1.0' };
    expect(advanceOsUpdate(done, robot(true, false))).toBe(done);
  });
});
