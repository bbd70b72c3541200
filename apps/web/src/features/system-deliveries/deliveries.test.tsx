import { adminOps, deliverySchema, paged } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const delivery = (id: number, purpose: string, status: 'stored' | 'sent' | 'failed', error: string | null = null) => ({
  id,
  channel: 'email' as const,
  recipient: 'a@example.com',
  subject: `Subject ${id}`,
  body: 'Body',
  status,
  error,
  purpose,
  createdAt: '2025-05-01T01:00:00.000Z',
});

describe('delivery log', () => {
  it('names the channel, purpose and status in words, in the screen language', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(adminOps.listDeliveries)]: () =>
        reply(paged(deliverySchema), {
          items: [
            delivery(1, 'auth-code', 'stored'),
            delivery(2, 'login-notification', 'failed', 'SMTP refused'),
            delivery(3, 'future-kind', 'sent'),
          ],
          total: 3,
          page: 1,
          perPage: 20,
        }),
    });
    await i18n.changeLanguage('ja');
    renderApp('/system/deliveries', { session: makeSession(9) });
    expect(await screen.findByText('認証コード', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('ログインのお知らせ')).toBeInTheDocument();
    expect(screen.getAllByText('メール')).toHaveLength(3);
    expect(screen.getByTestId('delivery-status-1')).toHaveTextContent('保存済み');
    expect(screen.getByTestId('delivery-status-2')).toHaveTextContent('失敗SMTP refused');
    // A purpose this version has no words for is shown as its code.
    expect(screen.getByText('future-kind')).toBeInTheDocument();
    expect(screen.queryByText('auth-code')).toBeNull();
  });
});
