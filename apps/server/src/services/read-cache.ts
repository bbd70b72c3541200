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
  };
}

export interface ReadCaches {
  /** Bearer sessions with everything the per-request checks need. */
  sessions: ReadCache;
  /** Serialized answers of hot list endpoints, per scope and filter. */
  lists: ReadCache;
}

export function createReadCaches(version: DataVersion, enabled: boolean, clock: Clock): ReadCaches {
  return {
    sessions: createReadCache({ version, enabled, clock, ttlMs: 10_000, maxEntries: 10_000 }),
    // Short enough that signed file URLs inside cached answers stay well within their validity.
    lists: createReadCache({ version, enabled, clock, ttlMs: 30_000, maxEntries: 2_000 }),
  };
}
