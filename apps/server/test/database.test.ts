import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { until, usingPostgres } from './helpers.ts';

describe.skipIf(!usingPostgres())('PostgreSQL connections (PostgreSQL only)', () => {
  it('an idle pooled connection the database ends is told, not thrown, and the next query opens a new one', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const lost: Error[] = [];
    const db = openDatabase({ kind: 'postgres', url } as never, { warn: ({ err }) => lost.push(err) });
    try {
      const pidOf = async () =>
        (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]!.pid;
      const pid = await pidOf();
      // The connection is idle in the pool now; end it from another session, as a restart would.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      await until(() => lost.length > 0 || null);
      expect(lost[0]).toMatchObject({ code: '57P01' });
      expect(await pidOf()).not.toBe(pid);
    } finally {
      await db.close();
    }
  });
});
