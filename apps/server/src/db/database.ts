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
 * Their rows are read as arrays and made into objects here (`readRows`).
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
          stmt = SCHEMA_CHANGE.test(source) ? forgetAfterRun(prepare(source), cache) : readRows(prepare(source));
          if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        }
        cache.set(source, stmt);
        return stmt;
      };
    },
  });
}

/** Statements that change the schema: the columns of a kept statement may change with them. */
const SCHEMA_CHANGE = /^\s*(alter|drop|create)\b/i;

/** A schema change empties the statement cache once run, so no statement keeps its old columns. */
function forgetAfterRun(stmt: SQLite.Statement, cache: Map<string, SQLite.Statement>): SQLite.Statement {
  const wrapped = {
    reader: stmt.reader,
    source: stmt.source,
    run: (...params: unknown[]) => {
      try {
        return stmt.run(...params);
      } finally {
        cache.clear();
      }
    },
  };
  return wrapped as unknown as SQLite.Statement;
}

type RawRow = unknown[];
type MakeRow = (raw: RawRow) => Record<string, unknown>;

/**
 * The statement as Kysely's driver uses it (`reader`, `all`, `iterate`, `run`), its rows read as
 * arrays (better-sqlite3's `raw` mode) and made into objects by a function written once per statement
 * for its columns: better-sqlite3 builds a row object one property at a time, which cost about half of
 * reading a list's page. The objects are the same: the columns' names as keys in their order, a later
 * column of the same name winning, as better-sqlite3 does.
 */
function readRows(stmt: SQLite.Statement): SQLite.Statement {
  if (!stmt.reader) return stmt;
  let names: string[] = [];
  let make: MakeRow = () => ({});
  const learn = () => {
    names = stmt.columns().map((c) => c.name);
    make = rowMaker(names);
  };
  // A name the object literal would treat apart: read as objects by better-sqlite3, as before.
  if (stmt.columns().some((c) => c.name === '__proto__')) return stmt;
  learn();
  stmt.raw(true);
  const toObjects = (raw: RawRow[]) => {
    // A statement SQLite re-prepared after a schema change may have other columns (the cache is
    // emptied by the portal's own schema changes; this catches another connection's).
    if (raw.length > 0 && raw[0]!.length !== names.length) learn();
    const out = new Array<Record<string, unknown>>(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = make(raw[i]!);
    return out;
  };
  const wrapped = {
    reader: true,
    source: stmt.source,
    all: (...params: unknown[]) => toObjects(stmt.all(...params) as RawRow[]),
    get: (...params: unknown[]) => {
      const raw = stmt.get(...params) as RawRow | undefined;
      return raw === undefined ? undefined : toObjects([raw])[0];
    },
    *iterate(...params: unknown[]) {
      for (const raw of stmt.iterate(...params) as IterableIterator<RawRow>) yield toObjects([raw])[0];
    },
    run: (...params: unknown[]) => stmt.run(...params),
  };
  return wrapped as unknown as SQLite.Statement;
}

/** `(r) => ({ "id": r[0], "name": r[1], ... })` for these column names (each written as a JSON string). */
function rowMaker(names: string[]): MakeRow {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ');
  return new Function('r', `return { ${fields} };`) as MakeRow;
}
