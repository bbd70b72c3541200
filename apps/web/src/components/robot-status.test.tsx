import { MantineProvider } from '@mantine/core';
import type { SentOrder } from '@portal/contract';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyLanguage, loadSection } from '@/lib/i18n';
import { LastOrderResult, StatusBadge } from './robot-status';

describe('robot status', () => {
  // Its texts are in the robots section (loaded by the routes that show it).
  beforeEach(() => loadSection('robots'));

  it('marks an online robot that stopped reporting, in both languages', async () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <StatusBadge label="available" />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-status')).toHaveTextContent('Available');
    expect(screen.queryByTestId('robot-not-reporting')).toBeNull();

    rerender(
      <MantineProvider env="test">
        <StatusBadge label="available" notReporting />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-status')).toHaveTextContent('Available');
    expect(screen.getByTestId('robot-not-reporting')).toHaveTextContent('Not reporting');

    await applyLanguage('ja');
    await loadSection('robots');
    rerender(
      <MantineProvider env="test">
        <StatusBadge label="available" notReporting />
      </MantineProvider>,
    );
    expect(screen.getByTestId('robot-not-reporting')).toHaveTextContent('応答なし');
    await applyLanguage('en');
  });

  it('says when the robot refused the last order and why, in both languages', async () => {
    const order: SentOrder = {
      orderId: 'o-1',
      label: { kind: 'goto', name: 'Desk' },
      status: 'rejected',
      error: { type: 'noRouteError', description: 'no way' },
      sentAt: '2026-01-02T03:04:05.000Z',
    };
    const view = (o: SentOrder) => (
      <MantineProvider env="test">
        <LastOrderResult order={o} />
      </MantineProvider>
    );
    const { rerender } = render(view(order));
    expect(screen.getByTestId('robot-last-order')).toHaveTextContent(
      'Refused by the robot: the order does not start where the robot stands',
    );
    rerender(view({ ...order, error: { type: 'loadError', description: 'too heavy' } }));
    expect(screen.getByTestId('robot-last-order')).toHaveTextContent('Refused by the robot: loadError: too heavy');
    rerender(view({ ...order, status: 'accepted', error: null }));
    expect(screen.getByTestId('robot-last-order')).toHaveTextContent('Accepted by the robot');

    await applyLanguage('ja');
    await loadSection('robots');
    rerender(view(order));
    expect(screen.getByTestId('robot-last-order')).toHaveTextContent('ロボットが拒否しました');
    await applyLanguage('en');
  });
});
