import { Kysely, PostgresDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';
import type { Dialect } from './migrator.ts';
import { DataVersion, dataVersionPlugin } from './data-version.ts';
import { PortalSqliteDialect } from './sqlite-dialect.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Bumped by every write through `kysely`. */
  dataVersion: DataVersion;
  /**
   * Whether in-process read caches keyed on `version` are exact: only when this process is the
   * database's only writer and runs one query at a time (SQLite). With PostgreSQL other servers
   * write too, and a pool reads beside open transactions, so the caches stay off there.
   */
  cacheable: boolean;
  /** Human-readable engine and version, for the versions page. */
  version(): Promise<string>;
  close(): Promise<void>;
}

export function openDatabase(database: Config['database']): Db {
  if (database.kind === 'postgres') {
    // Integers of count() come back as strings by default; parse int8 as number (counts are small).
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    const version = new DataVersion();
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [dataVersionPlugin(version)],
    });
    return {
      kysely,
      dialect: 'postgres',
      dataVersion: version,
      cacheable: false,
      version: async () => {
        const r = await pool.query<{ v: string }>('show server_version');
        return `PostgreSQL ${r.rows[0]?.v ?? ''}`;
      },
      close: () => kysely.destroy(),
    };
  }
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const version = new DataVersion();
  const kysely = new Kysely<Database>({
    dialect: new PortalSqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [dataVersionPlugin(version)],
  });
  return {
    kysely,
    dialect: 'sqlite',
    dataVersion: version,
    cacheable: true,
    version: async () => `SQLite ${sqlite.prepare('select sqlite_version() as v').pluck().get() as string}`,
    close: () => kysely.destroy(),
  };
}

/**
 * Kysely prepares every query anew; preparing is a large share of a short query's cost. Statements
 * are reusable in better-sqlite3 (it is synchronous), so keep the most recent ones by SQL text.
 */
function withStatementCache(db: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver);
      return (source: string) => {
        let stmt = cache.get(source);
        if (stmt) {
          // Refresh its place: the map's order is the eviction order.
          cache.delete(source);
        } else {
          stmt = prepare(source);
          if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        }
        cache.set(source, stmt);
        return stmt;
      };
    },
  });
}
