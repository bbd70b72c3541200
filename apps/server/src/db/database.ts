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

/** Where a lost idle PostgreSQL connection is told; standard error unless the caller gives its logger. */
export interface DbLog {
  warn(obj: { err: Error }, msg: string): void;
}
export const stderrLog: DbLog = { warn: ({ err }, msg) => console.error(`${msg}: ${err.message}`) };

export function openDatabase(database: Config['database'], log: DbLog = stderrLog): Db {
  if (database.kind === 'postgres') {
    // Integers of count() come back as strings by default; parse int8 as number (counts are small).
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    // PostgreSQL may end an idle pooled connection: a restart, a fail-over, an administrator's
    // terminate, or a test dropping its database. The pool tells it as its own 'error' event, which
    // would end the process without a listener. The pool has already dropped that connection and
    // opens a new one when next needed, so it is told, not thrown. After `close` it is expected.
    let closing = false;
    pool.on('error', (err) => {
      if (!closing) log.warn({ err }, 'database connection lost while idle; the pool opens a new one');
    });
    const version = new DataVersion();
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }),
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
      close: () => {
        closing = true;
        return kysely.destroy();
      },
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
 * Statements that are run on (nearly) every request, by their SQL text, with the name each is prepared
 * under on PostgreSQL (`preparedStatement`). Bounded: past the bound a statement is simply not named.
 */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 1000;

/**
 * Marks a statement's SQL as one to keep prepared on PostgreSQL: the lists' and the session's
 * statements, compiled once per shape (`lib/compiled-list.ts`), are sent by name, so each pooled
 * connection parses and analyses the text once and keeps its plan source, instead of parsing,
 * analysing and planning an unnamed statement on every request (about 0.6 ms of PostgreSQL's CPU
 * for the operator list's page, more than running it). Nothing changes on SQLite, whose statements
 * are kept by `withStatementCache`. The SQL must hold only parameters for values (a compiled
 * template does): a name stands for the text, never for a value.
 */
export function preparedStatement(sqlText: string): void {
  if (preparedNames.has(sqlText) || preparedNames.size >= MAX_PREPARED) return;
  preparedNames.set(sqlText, `portal_${preparedNames.size + 1}`);
}

type QueryFn = (text: unknown, values?: unknown, callback?: unknown) => unknown;
const namedClients = new WeakSet<object>();

/**
 * The pool as Kysely uses it (`connect`, `end`), its clients sending a statement marked by
 * `preparedStatement` as a named one (pg prepares it once per connection and then only binds and
 * executes it). PostgreSQL still plans each execution with its values (custom plans) until a generic
 * plan proves as cheap; a schema change invalidates the kept plans by itself.
 */
function withPreparedStatements(pool: pg.Pool): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    if (!namedClients.has(client)) {
      namedClients.add(client);
      const query = client.query.bind(client) as QueryFn;
      const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection
        ?.parsedStatements;
      // Every other call goes through untouched, with all its arguments: pg's own `pool.query` (the
      // version probe) calls a pooled client's query with a callback, which must be passed on.
      (client as unknown as { query: QueryFn }).query = (...args: Parameters<QueryFn>) => {
        const [text, values] = args;
        const name = typeof text === 'string' && args.length <= 2 ? preparedNames.get(text) : undefined;
        if (name === undefined) return query(...args);
        return (query({ name, text, values }) as Promise<unknown>).catch(async (err: unknown) => {
          // A kept `select *` whose table another server's migration changed: "cached plan must not
          // change result type" (0A000), on every later run. Prepare it anew once, then as before.
          if ((err as { code?: string }).code !== '0A000' || !parsed) throw err;
          await query(`deallocate ${name}`);
          delete parsed[name];
          return query({ name, text, values });
        });
      };
    }
    return client;
  };
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') return connect;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
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
