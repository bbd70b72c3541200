import type { Announcement, AuditLog, Message } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { toOffset } from '../../lib/pagination.ts';

type Page = { page: number; perPage: number };

/** What the operator reads: messages, their own audit log, announcements. */
export function feedService({ db, clock }: Pick<AppContext, 'db' | 'clock'>) {
  return {
    async messages(p: Principal, { page, perPage }: Page) {
      const base = db.selectFrom('messages').where('operator_id', '=', p.operatorId);
      const { limit, offset } = toOffset(page, perPage);
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
      const items: Message[] = rows.map((r) => ({
        id: r.id,
        level: r.level as Message['level'],
        title: r.title,
        body: r.body,
        createdAt: r.created_at,
        readAt: r.read_at,
      }));
      return { items, total: Number(total.n), page, perPage };
    },

    async markRead(p: Principal, id: number): Promise<void> {
      const row = await db
        .selectFrom('messages')
        .select(['id', 'read_at'])
        .where('id', '=', id)
        .where('operator_id', '=', p.operatorId)
        .executeTakeFirst();
      if (!row) throw notFound('Message');
      if (!row.read_at) {
        await db.updateTable('messages').set({ read_at: clock().toISOString() }).where('id', '=', id).execute();
      }
    },

    async auditLogs(p: Principal, { page, perPage }: Page) {
      const base = db.selectFrom('audit_logs').where('operator_id', '=', p.operatorId);
      const { limit, offset } = toOffset(page, perPage);
      const [rows, total] = await Promise.all([
        base
          .select(['id', 'at', 'operator_id', 'action', 'target_type', 'target_id', 'ip'])
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const items: AuditLog[] = rows.map((r) => ({
        id: r.id,
        at: r.at,
        operatorId: r.operator_id,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        ip: r.ip,
      }));
      return { items, total: Number(total.n), page, perPage };
    },

    async announcements(p: Principal, lang: 'ja' | 'en'): Promise<Announcement[]> {
      const ja = lang === 'ja';
      const rows = await db
        .selectFrom('announcements')
        .selectAll()
        .where((eb) => eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', p.organizationId)]))
        .where('published_at', '<=', clock().toISOString())
        .orderBy('published_at', 'desc')
        .limit(100)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        level: r.level as Announcement['level'],
        title: ja ? r.title_ja : r.title_en,
        body: ja ? r.body_ja : r.body_en,
        publishedAt: r.published_at,
      }));
    },
  };
}
