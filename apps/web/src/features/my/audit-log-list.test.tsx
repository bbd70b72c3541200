import { auditLogSchema, myOps, paged } from '@portal/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const entry = (
  id: number,
  action: string,
  targetType: string | null,
  targetId: string | null,
  targetName: string | null,
) => ({
  id,
  at: '2026-05-01T01:00:00.000Z',
  operatorId: 2,
  action,
  targetType,
  targetId,
  targetName,
  ip: '127.0.0.1',
});

/** Issue 12 item 5: the own audit log in words: actions as labels, targets by name. */
describe('my audit log', { timeout: 45_000 }, () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows actions and targets in Japanese words, never raw codes', async () => {
    await i18n.changeLanguage('ja');
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(myOps.listMyAuditLogs)]: () =>
        reply(paged(auditLogSchema), {
          items: [
            entry(1, 'terms.agree', 'term-document', '3', 'TOS 1.0'),
            entry(2, 'operator.create', 'operator', '4', '山田 太郎'),
            entry(3, 'floor-map.save', 'floor-map', '7', 'Demo Tower 1F'),
            entry(4, 'building.delete', 'building', '9', null),
          ],
          total: 4,
          page: 1,
          perPage: 20,
        }),
    });
    renderApp('/my/audit-logs/1', { session: makeSession() });
    expect(await screen.findByText('規約への同意', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('規約文書：利用規約 1.0')).toBeInTheDocument();
    expect(screen.getByText('オペレーターの作成')).toBeInTheDocument();
    expect(screen.getByText('オペレーター：山田 太郎')).toBeInTheDocument();
    expect(screen.getByText('マップの保存')).toBeInTheDocument();
    expect(screen.getByText('マップ：Demo Tower 1F')).toBeInTheDocument();
    // A target whose name is not known reads as its type and number.
    expect(screen.getByText('ビル #9')).toBeInTheDocument();
    expect(screen.queryByText(/terms\.agree|operator\.create|オペレーター #4/)).toBeNull();
    // Every API call says the screen's language (kept by the server for the account's mails).
    const call = calls.find((c) => c.path === '/api/my/audit-logs');
    expect(call?.headers.get('Accept-Language')).toBe('ja');
  });
});
