import type { DataVersion } from '../db/data-version.ts';
import type { Clock } from '../lib/time.ts';

/**
 * Memoises reads while the database is unchanged: an entry is used only while the data version it
 * was read at is still current and it is younger than `ttlMs`. A value computed while something
 * was written is returned but not kept. Off (computes every time) when the database is not
 * `cacheable` (see Db.cacheable).
 */
export interface ReadCache {
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Forgets every entry (an operator changed, possibly on another server instance). */
  clear(): void;
}

export function createReadCache(opts: {
  version: DataVersion;
  enabled: boolean;
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
}): ReadCache {
  const entries = new Map<string, { version: number; at: number; value: unknown }>();
  return {
    async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!opts.enabled) return compute();
      const now = opts.clock().getTime();
      const hit = entries.get(key);
      if (hit && hit.version === opts.version.value && now - hit.at < opts.ttlMs) return hit.value as T;
      const version = opts.version.value;
      const value = await compute();
      if (opts.version.value === version) {
        entries.delete(key);
        if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, { version, at: now, value });
      }
      return value;
    },
    clear: () => entries.clear(),
  };
}

export interface ReadCaches {
  /**
   * Bearer sessions with everything the per-request checks need. Where the exact caches are off
   * because other servers write too (PostgreSQL), a session is still kept for a few seconds
   * (`SESSION_TTL_ACROSS_WRITERS_MS`): dropped by any write of this server, as the exact caches
   * are, and by every operator change, heard from any server (app.ts); a write of another server
   * to what the checks read besides the operator (the contract, the building's IP rules) shows
   * within those seconds.
   */
  sessions: ReadCache;
  /** Serialized answers of hot list endpoints, per scope and filter. */
  lists: ReadCache;
}

/** How long a session is kept where the exact caches are off (see ReadCaches.sessions). */
export const SESSION_TTL_ACROSS_WRITERS_MS = 5_000;

/**
 * `enabled`: the exact caches (the database is cacheable and READ_CACHE is on). `sessionsAcrossWriters`:
 * where they are off because of the database (READ_CACHE on), sessions are still kept briefly.
 */
export function createReadCaches(
  version: DataVersion,
  enabled: boolean,
  clock: Clock,
  sessionsAcrossWriters = false,
): ReadCaches {
  const briefSessions = !enabled && sessionsAcrossWriters;
  return {
    sessions: createReadCache({
      version,
      enabled: enabled || briefSessions,
      clock,
      ttlMs: briefSessions ? SESSION_TTL_ACROSS_WRITERS_MS : 10_000,
      maxEntries: 10_000,
    }),
    // Short enough that signed file URLs inside cached answers stay well within their validity.
    lists: createReadCache({ version, enabled, clock, ttlMs: 30_000, maxEntries: 2_000 }),
  };
}
