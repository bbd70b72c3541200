import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * The robot model list is open (a third-party robot registers with its maker's model name, up to
 * 32 characters): the column widens from 16. SQLite does not enforce a varchar length.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`alter table robots alter column model type varchar(32)`.execute(db);
}
