import type { Announcement, AuditLog, Message } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { camelRow } from '../../lib/naming.ts';
import { toOffset } from '../../lib/pagination.ts';
import { feedRepo } from './feed-repo.ts';
import { withTargetNames } from '../../services/audit.ts';

type Page = { page: number; perPage: number };

/** What the operator reads: messages, their own audit log, announcements. */
export function feedService({ db, clock }: Pick<AppContext, 'db' | 'clock'>) {
  const repo = feedRepo(db);
  return {
    async messages(p: Principal, { page, perPage }: Page) {
      const { limit, offset } = toOffset(page, perPage);
      const { rows, total } = await repo.messages(p.operatorId, limit, offset);
      const items: Message[] = rows.map((r) => ({
        ...camelRow(r, ['id', 'title', 'body', 'created_at', 'read_at']),
        level: r.level as Message['level'],
      }));
      return { items, total, page, perPage };
    },

    async markRead(p: Principal, id: number): Promise<void> {
      const row = await repo.message(p.operatorId, id);
      if (!row) throw notFound('Message');
      if (!row.read_at) await repo.markRead(id, clock().toISOString());
    },

    async auditLogs(p: Principal, { page, perPage }: Page) {
      const { limit, offset } = toOffset(page, perPage);
      const { rows, total } = await repo.auditLogs(p.operatorId, limit, offset);
      const items: AuditLog[] = (await withTargetNames(db, rows)).map((r) => camelRow(r));
      return { items, total, page, perPage };
    },

    async announcements(p: Principal, lang: 'ja' | 'en'): Promise<Announcement[]> {
      const ja = lang === 'ja';
      const rows = await repo.announcements(p.organizationId, clock().toISOString());
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
