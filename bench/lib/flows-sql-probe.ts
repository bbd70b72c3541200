/**
 * Diagnostic probe of `npm run bench:flows` (FLOWS_SQL_PROBE=1): loaded into the server process with
 * `--import`, it changes no behaviour and only watches SQLite. Every statement better-sqlite3 prepares
 * is wrapped so each run/get/all/iterate call is counted and timed (synchronous: the time is the
 * statement's own, commit included). Every second it appends the totals so far, by SQL text, as one
 * JSON line to FLOWS_SQL_PROBE_FILE; the bench prints the difference over the measured window.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface SqlProbeLine {
  at: number;
  /** SQL text (first 160 characters) → [calls, ms]. */
  sql: Record<string, [number, number]>;
}

const file = process.env.FLOWS_SQL_PROBE_FILE;
if (file) {
  // The same CommonJS module instance the server's database module imports (hoisted in the workspace).
  const Database = createRequire(import.meta.url)('better-sqlite3') as {
    prototype: { prepare: (source: string) => Record<string, unknown> };
  };
  const totals = new Map<string, [number, number]>();
  const add = (key: string, ms: number) => {
    const entry = totals.get(key) ?? [0, 0];
    entry[0]++;
    entry[1] += ms;
    totals.set(key, entry);
  };
  /**
   * An open transaction holds SQLite's one connection: every other query of the server waits until
   * it commits. Counted as its own line, begin → commit (or rollback), awaits in between included.
   */
  let openedAt: number | null = null;
  const HELD = '(a transaction held open: begin → commit or rollback)';
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: unknown, source: string) {
    const stmt = prepare.call(this, source);
    const key = source.replace(/\s+/g, ' ').slice(0, 160);
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = stmt[method] as ((...args: unknown[]) => unknown) | undefined;
      if (typeof original !== 'function') continue;
      stmt[method] = function (this: unknown, ...args: unknown[]) {
        const t = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          const end = performance.now();
          add(key, end - t);
          if (key === 'begin') openedAt = t;
          else if ((key === 'commit' || key === 'rollback') && openedAt !== null) {
            add(HELD, end - openedAt);
            openedAt = null;
          }
        }
      };
    }
    return stmt;
  };
  const timer = setInterval(() => {
    const line: SqlProbeLine = { at: Date.now(), sql: Object.fromEntries(totals) };
    appendFileSync(file, JSON.stringify(line) + '\n');
  }, 1000);
  timer.unref();
}
