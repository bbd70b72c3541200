import { LOW_BATTERY_PERCENT, type VdaState } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/time.ts';
import type { RobotLink } from '../robot-link/types.ts';
import { notificationRepo } from './notification-repo.ts';
import type { NotificationEventInput, NotifyResult } from './notification-engine.ts';

/** Error types with an event of their own (not a hardware error). */
const NOT_HARDWARE = new Set(['emergencyStop', 'lowBattery']);
const FATAL_MARK = 'fatal:';

/** What the watcher last acted on for a robot (memory only: the marks in the database decide). */
interface Known {
  online?: boolean;
  eStop?: boolean;
  low?: boolean;
  fatal?: Set<string>;
  /**
   * Back online after the link saw it offline: the timestamp of the state it had before (still the
   * link's last state until a new one comes; ignored), and the first new state's low battery dropped
   * while offline.
   */
  returned?: { stale: string | null };
}

/**
 * Turns what the robot link hears into notification events (docs/notifications.md "Robot events"):
 * low battery (below LOW_BATTERY_PERCENT while online; re-armed once back above it), the emergency
 * stop, hardware errors of level FATAL, and a robot offline longer than NOTIFY_OFFLINE_MINUTES
 * (checked at every round of the notification worker, `checkOffline`). Each condition is a robot
 * mark in `notification_marks`: the event is recorded first with a dedupe key made of the mark's
 * previous value and time, then the mark is changed by compare-and-set. So every server of a
 * cluster may hear the robot and the event is recorded once, and a restart (memory lost) neither
 * repeats an event whose mark is set nor loses one recorded just before the crash. States heard
 * while the robot is offline are ignored, and a drop that happened while it was offline is never
 * reported later: when the robot comes back (its connection mark said offline) already below the
 * threshold while its battery mark said ok, the mark becomes low without a notification (re-armed
 * once back above). A robot heard online for the first time already below the threshold (no marks
 * yet) is notified.
 */
export function startRobotWatcher(deps: {
  db: Kysely<Database>;
  clock: Clock;
  link: Pick<RobotLink, 'on' | 'details'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  notify: (e: NotificationEventInput) => Promise<NotifyResult | null>;
  offlineMinutes: number;
}) {
  const { link, log, clock, notify } = deps;
  const repo = notificationRepo(deps.db);
  const known = new Map<number, Known>();
  const queues = new Map<number, Promise<void>>();
  const now = () => clock().toISOString();

  function enqueue(robotId: number, job: () => Promise<void>): void {
    const prev = queues.get(robotId) ?? Promise.resolve();
    const next = prev
      .then(job)
      .catch((err: unknown) => log.error({ err, robotId }, 'robot notification not recorded'))
      .finally(() => {
        if (queues.get(robotId) === next) queues.delete(robotId);
      });
    queues.set(robotId, next);
  }

  /**
   * Moves a mark to `next` (never set: `fallback`); when it enters an alerting value, records the
   * event first (dedupe key: the mark's previous state). Answers whether the mark changed.
   */
  async function change(
    robotId: number,
    mark: string,
    next: string,
    fallback: string,
    event: NotificationEventInput | null,
  ): Promise<void> {
    const current = await repo.mark(robotId, mark);
    const value = current?.value ?? fallback;
    if (value === next) return;
    if (event) {
      await notify({ ...event, dedupeKey: `${event.kind}:${robotId}:${mark}:${current?.at ?? 'none'}` });
    }
    await repo.transition(robotId, mark, current ? current.value : null, next, now());
  }

  async function fromState(robotId: number, mine: Known, state: VdaState, floorId: number | null): Promise<void> {
    const base = { robotId, floorId };
    // Emergency stop.
    const eStop = state.safetyState.eStop !== 'NONE' || state.errors.some((e) => e.errorType === 'emergencyStop');
    if (mine.eStop !== eStop) {
      await change(
        robotId,
        'emergencyStop',
        eStop ? 'pressed' : 'released',
        'released',
        eStop ? { ...base, kind: 'emergencyStop', details: { eStop: state.safetyState.eStop } } : null,
      );
      mine.eStop = eStop;
    }
    // Low battery: below the threshold is low; back above it re-arms; exactly at it changes nothing.
    const charge = state.batteryState.batteryCharge;
    const low = charge < LOW_BATTERY_PERCENT ? true : charge > LOW_BATTERY_PERCENT ? false : mine.low;
    const returned = mine.returned !== undefined;
    delete mine.returned;
    if (low !== undefined && mine.low !== low) {
      // A drop that happened while offline: the mark follows, nothing is sent (re-armed above the threshold).
      const droppedOffline = returned && low && (await repo.mark(robotId, 'battery'))?.value === 'ok';
      await change(
        robotId,
        'battery',
        low ? 'low' : 'ok',
        'ok',
        low && !droppedOffline
          ? { ...base, kind: 'lowBattery', level: 9, details: { percent: Math.round(charge) } }
          : null,
      );
      mine.low = low;
    }
    // Hardware errors of level FATAL: each type once while it lasts.
    if (!mine.fatal) {
      const marks = await repo.marks(robotId, FATAL_MARK);
      mine.fatal = new Set([...marks].filter(([, v]) => v === 'active').map(([m]) => m.slice(FATAL_MARK.length)));
    }
    const fatal = new Map<string, VdaState['errors'][number]>();
    for (const e of state.errors) {
      if (e.errorLevel === 'FATAL' && !NOT_HARDWARE.has(e.errorType) && !fatal.has(e.errorType))
        fatal.set(e.errorType, e);
    }
    for (const [type, e] of fatal) {
      if (mine.fatal.has(type)) continue;
      await change(robotId, FATAL_MARK + type, 'active', 'clear', {
        ...base,
        kind: 'hardwareError',
        details: { errorType: type, description: e.errorDescription ?? null },
      });
      mine.fatal.add(type);
    }
    for (const type of [...mine.fatal]) {
      if (fatal.has(type)) continue;
      await change(robotId, FATAL_MARK + type, 'clear', 'clear', null);
      mine.fatal.delete(type);
    }
  }

  const offLive = link.on('live', (e) => {
    const robotId = e.robotId;
    let mine = known.get(robotId);
    if (!mine) known.set(robotId, (mine = {}));
    const m = mine;
    const online = e.live.online;
    const state = online ? (link.details(robotId)?.state ?? null) : null;
    const floorId = e.live.floorId ?? null;
    enqueue(robotId, async () => {
      if (m.online !== online) {
        const current = await repo.mark(robotId, 'connection');
        if (online && current?.value !== 'online') {
          if (current !== null) m.returned = { stale: state?.timestamp ?? null };
          await repo.transition(robotId, 'connection', current ? current.value : null, 'online', now());
        } else if (!online && current?.value === 'online') {
          // The offline time counts from now; checkOffline notifies once it is long enough.
          await repo.transition(robotId, 'connection', 'online', 'offline', now());
        }
        m.online = online;
      }
      if (!online || !state) return;
      if (m.returned && state.timestamp === m.returned.stale) return;
      await fromState(robotId, m, state, floorId);
    });
  });

  return {
    /** Robots offline longer than the configured time: one event each (run by the worker's rounds). */
    async checkOffline(): Promise<void> {
      const before = new Date(clock().getTime() - deps.offlineMinutes * 60_000).toISOString();
      for (const r of await repo.offlineSince(before)) {
        await notify({
          robotId: r.robot_id,
          kind: 'robotOffline',
          details: { minutes: deps.offlineMinutes, since: r.at },
          at: clock(),
          dedupeKey: `robotOffline:${r.robot_id}:${r.at}`,
        });
        await repo.transition(r.robot_id, 'connection', 'offline', 'offlineNotified', now());
      }
    },
    /** Resolves when the writes queued so far are done. */
    async idle(): Promise<void> {
      while (queues.size > 0) await Promise.allSettled([...queues.values()]);
    },
    stop(): void {
      offLive();
    },
  };
}

export type RobotWatcher = ReturnType<typeof startRobotWatcher>;
