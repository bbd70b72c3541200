import { activityLevelOfErrorLevel, LOW_BATTERY_PERCENT, type TeleopOperator, type VdaState } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { RobotLink } from '../robot-link/types.ts';
import type { ActivityService, MarkChange } from './activity-service.ts';

/** How often the retention runs (each server runs it; deleting twice is harmless). */
export const PRUNE_EVERY_MS = 60 * 60_000;

/** What the watcher last wrote or found for a robot, to tell a change from a repeat without the database. */
interface Known {
  online?: boolean;
  /** How the link last said the robot went away (connection message or session end). */
  lastConnection?: string;
  eStop?: boolean;
  lowBattery?: boolean;
  osVersion?: string;
  /** Error types seen active (loaded from the marks on the robot's first state after a start). */
  errors?: Map<string, VdaState['errors'][number]>;
}

const ERROR_MARK = 'error:';
/** Error types the log shows as their own kind, not as robot errors. */
const NOT_ERRORS = new Set(['emergencyStop', 'lowBattery']);

const errorParams = (e: VdaState['errors'][number]) => ({
  errorType: e.errorType,
  errorLevel: e.errorLevel,
  description: e.errorDescription ?? null,
});

/** The state's timestamp as ISO text (null when the robot's is unreadable). */
const stampOf = (state: VdaState): string | null => {
  const t = Date.parse(state.timestamp);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
};

/**
 * Writes what the robot link hears into the activity log (docs/api-activity.md): connection
 * changes, robot errors appearing and clearing, the emergency stop, low battery (re-armed above
 * LOW_BATTERY_PERCENT) and OS version changes. Every server of a cluster hears every robot; each
 * change goes through `activity.change`, whose compare-and-set of the robot's mark lets exactly one
 * server write the entry (and a restarted server not write a condition again). Also runs the
 * retention every PRUNE_EVERY_MS. Answers `stop` and `idle` (resolves when pending writes are done).
 */
export function startActivityWatcher(deps: {
  link: Pick<RobotLink, 'on' | 'details'>;
  activity: ActivityService;
  log: Pick<FastifyBaseLogger, 'error'>;
}) {
  const { link, activity, log } = deps;
  const known = new Map<number, Known>();
  /** Per robot, writes run one after another in arrival order. */
  const queues = new Map<number, Promise<void>>();

  function enqueue(robotId: number, job: () => Promise<void>): void {
    const prev = queues.get(robotId) ?? Promise.resolve();
    const next = prev
      .then(job)
      .catch((err: unknown) => log.error({ err, robotId }, 'activity not recorded'))
      .finally(() => {
        if (queues.get(robotId) === next) queues.delete(robotId);
      });
    queues.set(robotId, next);
  }
  const k = (robotId: number): Known => {
    let v = known.get(robotId);
    if (!v) known.set(robotId, (v = {}));
    return v;
  };
  const change = (c: MarkChange) => activity.change(c);

  const offConnection = link.on('connection', (e) => {
    k(e.robotId).lastConnection = e.state;
  });

  const offLive = link.on('live', (e) => {
    const robotId = e.robotId;
    const mine = k(robotId);
    const online = e.live.online;
    // Read now: the state this live event comes from (the link stores it before emitting).
    const state = link.details(robotId)?.state ?? null;
    const how = mine.lastConnection;
    enqueue(robotId, async () => {
      if (mine.online !== online) {
        await change({
          robotId,
          mark: 'connection',
          next: online ? 'online' : 'offline',
          stamp: null,
          fallback: 'offline',
          entry: () => ({
            kind: 'connection',
            code: online
              ? 'online'
              : how === 'CONNECTIONBROKEN' || how === 'SESSION_ENDED'
                ? 'connectionBroken'
                : 'offline',
          }),
        });
        mine.online = online;
      }
      // Conditions from the state count only while online (a drop while offline is never reported later).
      if (!online || !state) return;
      await fromState(robotId, mine, state);
    });
  });

  async function fromState(robotId: number, mine: Known, state: VdaState): Promise<void> {
    const stamp = stampOf(state);
    // Emergency stop.
    const eStop = state.safetyState.eStop !== 'NONE' || state.errors.some((x) => x.errorType === 'emergencyStop');
    if (mine.eStop !== eStop) {
      await change({
        robotId,
        mark: 'emergencyStop',
        next: eStop ? 'pressed' : 'released',
        stamp,
        fallback: 'released',
        entry: () => ({
          kind: 'emergencyStop',
          code: eStop ? 'pressed' : 'released',
          params: { eStop: state.safetyState.eStop },
        }),
      });
      mine.eStop = eStop;
    }
    // Low battery: below the threshold is low; it re-arms only once back above it.
    const charge = state.batteryState.batteryCharge;
    const low = charge < LOW_BATTERY_PERCENT ? true : charge > LOW_BATTERY_PERCENT ? false : mine.lowBattery;
    if (low !== undefined && mine.lowBattery !== low) {
      await change({
        robotId,
        mark: 'battery',
        next: low ? 'low' : 'ok',
        stamp,
        fallback: 'ok',
        entry: () => ({
          kind: 'battery',
          code: low ? 'low' : 'recovered',
          params: { percent: Math.round(charge), threshold: LOW_BATTERY_PERCENT },
        }),
      });
      mine.lowBattery = low;
    }
    // Robot errors: each type is a mark; appearing and clearing are written once.
    if (!mine.errors) {
      const marks = await activity.marks(robotId, ERROR_MARK);
      mine.errors = new Map();
      for (const [mark, value] of marks) {
        if (value === 'active') {
          const errorType = mark.slice(ERROR_MARK.length);
          mine.errors.set(errorType, { errorType, errorLevel: 'WARNING' });
        }
      }
    }
    const now = new Map<string, VdaState['errors'][number]>();
    for (const err of state.errors) {
      if (!NOT_ERRORS.has(err.errorType) && !now.has(err.errorType)) now.set(err.errorType, err);
    }
    for (const [type, err] of now) {
      if (mine.errors.has(type)) continue;
      await change({
        robotId,
        mark: ERROR_MARK + type,
        next: 'active',
        stamp,
        fallback: 'clear',
        entry: () => ({
          kind: 'robotError',
          code: 'errorRaised',
          level: activityLevelOfErrorLevel(err.errorLevel),
          params: errorParams(err),
        }),
      });
      mine.errors.set(type, err);
    }
    for (const type of [...mine.errors.keys()]) {
      if (now.has(type)) continue;
      await change({
        robotId,
        mark: ERROR_MARK + type,
        next: 'clear',
        stamp,
        fallback: 'clear',
        entry: () => ({ kind: 'robotError', code: 'errorCleared', params: { errorType: type } }),
      });
      mine.errors.delete(type);
    }
    // OS version: the first one heard is only remembered; a change is an update.
    const osVersion = link.details(robotId)?.teleop?.osVersion ?? null;
    if (osVersion && mine.osVersion !== osVersion) {
      await change({
        robotId,
        mark: 'osVersion',
        next: osVersion,
        stamp,
        fallback: null,
        entry: (from) =>
          from === null ? null : { kind: 'osUpdate', code: 'updated', params: { from, to: osVersion } },
      });
      mine.osVersion = osVersion;
    }
  }

  const offRegistry = link.on('registry', (e) => {
    // A deleted robot's memory goes with it (its marks go with its row).
    if (!link.details(e.robotId)) known.delete(e.robotId);
  });

  const prune = setInterval(() => {
    void activity.prune().catch((err: unknown) => log.error({ err }, 'activity retention failed'));
  }, PRUNE_EVERY_MS);
  prune.unref();

  return {
    /** Resolves once every write queued so far is done (tests, shutdown). */
    async idle(): Promise<void> {
      while (queues.size > 0) await Promise.allSettled([...queues.values()]);
    },
    async stop(): Promise<void> {
      clearInterval(prune);
      offConnection();
      offLive();
      offRegistry();
      await this.idle();
    },
  };
}
export type ActivityWatcher = ReturnType<typeof startActivityWatcher>;

/** What the teleop service tells about the controls (teleop-service.ts `onControl`). */
export interface ControlChange {
  robotId: number;
  operator: TeleopOperator;
  event: 'start' | 'end';
  /** start: took them over from someone; end: released, left or taken over. */
  reason: 'granted' | 'takeover' | 'released' | 'left' | 'takenOver';
}

/** Writes a teleop control change (the session is on this server, so this server alone writes it). */
export function recordControl(activity: ActivityService, log: Pick<FastifyBaseLogger, 'error'>) {
  return (c: ControlChange): void => {
    void activity
      .record({
        robotId: c.robotId,
        kind: 'teleop',
        code: c.event === 'start' ? 'controlStarted' : 'controlEnded',
        params: { operatorId: c.operator.operatorId, operatorName: c.operator.name, reason: c.reason },
      })
      .catch((err: unknown) => log.error({ err, robotId: c.robotId }, 'teleop activity not recorded'));
  };
}
