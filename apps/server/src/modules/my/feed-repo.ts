import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL of what the operator reads: messages, their own audit log, announcements. */
export function feedRepo(db: Kysely<Database>) {
  return {
    async messages(operatorId: number, limit: number, offset: number) {
      const base = db.selectFrom('messages').where('operator_id', '=', operatorId);
      const [rows, total] = await Promise.all([
        base
          .select(['id', 'level', 'title', 'body', 'created_at', 'read_at'])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    message(operatorId: number, id: number) {
      return db
        .selectFrom('messages')
        .select(['id', 'read_at'])
        .where('id', '=', id)
        .where('operator_id', '=', operatorId)
        .executeTakeFirst();
    },

    async markRead(id: number, at: string): Promise<void> {
      await db.updateTable('messages').set({ read_at: at }).where('id', '=', id).execute();
    },

    async auditLogs(operatorId: number, limit: number, offset: number) {
      const base = db.selectFrom('audit_logs').where('operator_id', '=', operatorId);
      const [rows, total] = await Promise.all([
        base
          .select(['id', 'at', 'operator_id', 'action', 'target_type', 'target_id', 'target_name', 'ip'])
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    /** Published announcements for everyone or the organization, newest first (at most 100). */
    announcements(organizationId: number, now: string) {
      return db
        .selectFrom('announcements')
        .selectAll()
        .where((eb) => eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', organizationId)]))
        .where('published_at', '<=', now)
        .orderBy('published_at', 'desc')
        .limit(100)
        .execute();
    },
  };
}
