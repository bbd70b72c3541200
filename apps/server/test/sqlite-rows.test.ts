import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';

/**
 * SQLite rows are read as arrays and made into objects by the data layer (db/database.ts
 * `readRows`): the objects must be the ones better-sqlite3 makes itself, whatever the statement.
 * Always SQLite (a file of its own), whichever database the rest of the suite runs on.
 */
let dir: string;
let db: Db;
let plain: Database.Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-sqlite-rows-'));
  const file = join(dir, 'rows.db');
  db = openDatabase({ kind: 'sqlite', file } as never);
  await sql`create table t (id integer primary key, name text, score real, data blob, gone text)`.execute(db.kysely);
  await sql`insert into t (name, score, data, gone) values ('a', 1.5, x'0102', null), ('b', null, null, 'x')`.execute(
    db.kysely,
  );
  plain = new Database(file);
});
afterAll(async () => {
  plain?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const same = async (text: string) => {
  const ours = (await sql.raw(text).execute(db.kysely)).rows;
  const theirs = plain.prepare(text).all();
  expect(ours, text).toEqual(theirs);
  // The same keys in the same order (answers are written in key order).
  expect(
    ours.map((r) => Object.keys(r as object)),
    text,
  ).toEqual(theirs.map((r) => Object.keys(r as object)));
  return ours as Array<Record<string, unknown>>;
};

describe('SQLite rows read as arrays', () => {
  it('answers the rows better-sqlite3 answers: every column, null, real, blob, no rows', async () => {
    const rows = await same('select * from t order by id');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.data).toEqual(Buffer.from([1, 2]));
    await same('select id, name as "the name", score * 2 as doubled from t where id > 1');
    await same('select * from t where id < 0');
    // A statement answered again from the statement cache answers the same.
    await same('select * from t order by id');
  });

  it('keeps the last of two columns of the same name, in the place of the first', async () => {
    const rows = await same('select 1 as a, 2 as b, 3 as a');
    expect(rows).toEqual([{ a: 3, b: 2 }]);
  });

  it('makes a column named __proto__ a property, as before', async () => {
    const rows = await same('select 1 as "__proto__", 2 as b');
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('answers the rows of insert ... returning and the changes of a write', async () => {
    const inserted = await sql<{
      id: number;
      name: string;
    }>`insert into t (name) values ('c') returning id, name`.execute(db.kysely);
    expect(inserted.rows).toEqual([{ id: 3, name: 'c' }]);
    const updated = await sql`update t set name = 'd' where id = 3`.execute(db.kysely);
    expect(updated.numAffectedRows).toBe(1n);
  });

  it('follows a schema change under a kept statement (its columns change)', async () => {
    const text = 'select * from t where id = 1';
    expect(Object.keys((await same(text))[0]!)).toEqual(['id', 'name', 'score', 'data', 'gone']);
    await sql`alter table t add column extra text default 'e'`.execute(db.kysely);
    const after = await same(text);
    expect(after[0]!.extra).toBe('e');
    await sql`alter table t drop column gone`.execute(db.kysely);
    expect(Object.keys((await same(text))[0]!)).toEqual(['id', 'name', 'score', 'data', 'extra']);
    // As many columns as before, another name.
    await sql`alter table t rename column extra to label`.execute(db.kysely);
    expect(Object.keys((await same(text))[0]!)).toEqual(['id', 'name', 'score', 'data', 'label']);
  });
});
