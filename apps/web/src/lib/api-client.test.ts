import { sessionSchema } from '@portal/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeSession } from '@/testing/fixtures';
import { mockApi, reply, replyError } from '@/testing/mock-api';
import { api, ApiError, setAuthFailureHandlers } from './api-client';
import { busyStore } from './busy';
import { sessionStore } from './session';

describe('api client', () => {
  it('sends the bearer token and credentials, and counts writes as busy', async () => {
    sessionStore.save(makeSession());
    let busyDuringCall = false;
    const { fetchMock } = mockApi({
      'POST /api/my/location': () => {
        busyDuringCall = busyStore.isBusy();
        return reply(sessionSchema, makeSession(1));
      },
    });
    const session = await api.send('POST', '/my/location', sessionSchema, { body: { buildingId: 10 } });
    expect(session.type).toBe(1);
    expect(busyDuringCall).toBe(true);
    expect(busyStore.isBusy()).toBe(false);
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer token-abc');
  });

  it('leaves a quiet write out of the loading overlay', async () => {
    sessionStore.save(makeSession());
    let busyDuringCall = true;
    mockApi({
      'POST /api/my/location': () => {
        busyDuringCall = busyStore.isBusy();
        return reply(sessionSchema, makeSession(1));
      },
    });
    await api.send('POST', '/my/location', sessionSchema, { body: { buildingId: 10 }, quiet: true });
    expect(busyDuringCall).toBe(false);
  });

  it('parses the error body and reports a lost session, except for login calls', async () => {
    const onUnauthenticated = vi.fn();
    setAuthFailureHandlers({ onUnauthenticated, onContractBlocked: vi.fn(), onPasswordChangeRequired: vi.fn() });
    mockApi({
      'GET /api/my/profile': () => replyError('UNAUTHENTICATED'),
      'POST /api/operators/login': () => replyError('INVALID_CREDENTIALS'),
    });
    const error = await api.get('/my/profile', sessionSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);

    await api.command('POST', '/operators/login', { body: {}, skipAuthRedirect: true }).catch(() => undefined);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    setAuthFailureHandlers(null);
  });
});
