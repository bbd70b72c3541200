import type { Clock } from '../../lib/time.ts';

/** takePhoto actions remembered at most; the oldest is forgotten first. */
export const PHOTO_ATTRIBUTION_MAX = 1000;
/** A photo arriving later than this after its takePhoto is stored without its operator. */
export const PHOTO_ATTRIBUTION_TTL_MS = 10 * 60_000;

interface Pending {
  robotId: number;
  operatorId: number;
  until: number;
}

export type PhotoAttribution = ReturnType<typeof photoAttribution>;

/**
 * Who asked for which photo: the takePhoto action ids this server sent, in memory (bounded, with
 * expiry). A photo whose action is not here (another server sent it, a restart, a robot's own
 * photo) is stored without an operator.
 */
export function photoAttribution(clock: Clock) {
  const pending = new Map<string, Pending>();

  function prune(now: number): void {
    // Insertion order is expiry order (one TTL for all), so the expired ones are at the front.
    for (const [id, p] of pending) {
      if (p.until > now) break;
      pending.delete(id);
    }
  }

  return {
    remember(actionId: string, robotId: number, operatorId: number): void {
      const now = clock().getTime();
      prune(now);
      pending.set(actionId, { robotId, operatorId, until: now + PHOTO_ATTRIBUTION_TTL_MS });
      if (pending.size > PHOTO_ATTRIBUTION_MAX) pending.delete(pending.keys().next().value!);
    },
    /** The operator of a photo's takePhoto action (once), or null. */
    take(actionId: string, robotId: number): number | null {
      const p = pending.get(actionId);
      if (!p || p.robotId !== robotId) return null;
      pending.delete(actionId);
      return p.until > clock().getTime() ? p.operatorId : null;
    },
    get size(): number {
      return pending.size;
    },
  };
}
