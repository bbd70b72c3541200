import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';
import type { Dialect } from './migrator.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Human-readable engine and version, for the versions page. */
  version(): Promise<string>;
  close(): Promise<void>;
}

export function openDatabase(database: Config['database']): Db {
  if (database.kind === 'postgres') {
    // Integers of count() come back as strings by default; parse int8 as number (counts are small).
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
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
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    kysely,
    dialect: 'sqlite',
    version: async () => `SQLite ${sqlite.prepare('select sqlite_version() as v').pluck().get() as string}`,
    close: () => kysely.destroy(),
  };
}
