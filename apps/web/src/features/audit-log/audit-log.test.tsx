import { auditLogEntrySchema, auditOps, operatorOps, operatorSchema } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { auditLogFilter, parseAuditLogParams } from './list-params';

describe('audit log', () => {
  it('turns the URL filters into the request filter and shows the entries', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(operatorOps.listOperators)]: () => reply(z.array(operatorSchema), []),
      [on(auditOps.listAuditLogs)]: () => {
        const res = reply(z.array(auditLogEntrySchema), [
          {
            id: 1,
            at: '2025-05-01T01:00:00.000Z',
            operatorId: 7,
            operatorName: 'Yamada Hanako',
            organizationId: 1,
            action: 'operator.lock',
            targetType: 'operator',
            targetId: '20',
            targetName: 'Sato Jiro',
            ip: '127.0.0.1',
            detail: null,
          },
          {
            id: 2,
            at: '2025-05-01T02:00:00.000Z',
            operatorId: null,
            operatorName: null,
            organizationId: 1,
            action: 'robot.dance',
            targetType: 'robot',
            targetId: '3',
            targetName: null,
            ip: null,
            detail: null,
          },
        ]);
        res.headers.set('X-Total-Count', '120');
        return res;
      },
    });
    const app = renderApp('/audit-log/list?page=2&operator=7&targetType=operator&from=2025-05-01&to=2025-05-31', {
      session: makeSession(2),
    });
    expect(await screen.findByTestId('audit-table', {}, { timeout: 5000 })).toHaveTextContent('Operator locked');
    // Targets by name (recorded by the server), else by type and number.
    expect(screen.getByRole('cell', { name: 'Operator: Sato Jiro' })).toBeInTheDocument();
    // Known codes get their label, never the raw code; a code this version has no label for is shown as it is.
    expect(screen.getByTestId('audit-table')).not.toHaveTextContent('operator.lock');
    expect(screen.getByRole('cell', { name: 'robot.dance' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Robot #3' })).toBeInTheDocument();
    const filter = JSON.parse(calls.find((c) => c.path === '/api/audit-logs')?.search.get('filter') ?? '{}') as unknown;
    expect(filter).toEqual({
      where: {
        and: [
          { operatorId: 7 },
          { targetType: 'operator' },
          { at: { gte: new Date('2025-05-01T00:00:00.000').toISOString() } },
          { at: { lte: new Date('2025-05-31T23:59:59.999').toISOString() } },
        ],
      },
      order: 'at DESC',
      limit: 50,
      skip: 50,
    });
    await app.user.selectOptions(screen.getByTestId('audit-target-type'), '');
    await waitFor(() => expect(app.location()).toBe('/audit-log/list?operator=7&from=2025-05-01&to=2025-05-31'));
  }, 20_000);

  it('uses Tokyo days on Japanese screens', () => {
    const p = parseAuditLogParams(new URLSearchParams('from=2025-05-01&to=bad'));
    expect(auditLogFilter(p, 'ja').where).toEqual({ at: { gte: '2025-05-01T00:00:00.000+09:00' } });
  });
});
