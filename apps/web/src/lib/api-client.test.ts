import { authOps, buildingOps, myOps, sessionSchema } from '@portal/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeSession } from '@/testing/fixtures';
import { mockApi, noContent, on, reply, replyError } from '@/testing/mock-api';
import { ApiError, beginSignOut, client, setAuthFailureHandlers } from './api-client';
import { busyStore } from './busy';
import { sessionStore } from './session';

describe('api client', () => {
  it('sends the bearer token and credentials, and counts writes as busy', async () => {
    sessionStore.save(makeSession());
    let busyDuringCall = false;
    const { fetchMock, calls } = mockApi({
      [on(myOps.changeLocation)]: () => {
        busyDuringCall = busyStore.isBusy();
        return reply(sessionSchema, makeSession(1));
      },
    });
    const session = await client.call(myOps.changeLocation, { body: { buildingId: 10 } });
    expect(session.type).toBe(1);
    expect(busyDuringCall).toBe(true);
    expect(busyStore.isBusy()).toBe(false);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/my/location', body: { buildingId: 10 } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer token-abc');
  });

  it('leaves a quiet write out of the loading overlay', async () => {
    sessionStore.save(makeSession());
    let busyDuringCall = true;
    mockApi({
      [on(myOps.changeLocation)]: () => {
        busyDuringCall = busyStore.isBusy();
        return reply(sessionSchema, makeSession(1));
      },
    });
    await client.call(myOps.changeLocation, { body: { buildingId: 10 }, quiet: true });
    expect(busyDuringCall).toBe(false);
  });

  it('fills path parameters, sends a list filter as JSON and reads the total of a page', async () => {
    sessionStore.save(makeSession());
    const { calls } = mockApi({
      [on(buildingOps.listBuildings)]: () =>
        new Response(JSON.stringify([{ id: 3, name: 'Tower' }]), {
          status: 200,
          headers: { 'Content-Type': 'application/json', 'X-Total-Count': '41' },
        }),
    });
    const page = await client.page(buildingOps.listBuildings, { query: { filter: { limit: 1, skip: 2 } } });
    expect(page).toEqual({ items: [{ id: 3, name: 'Tower' }], total: 41 });
    expect(JSON.parse(calls[0]!.search.get('filter')!)).toEqual({ limit: 1, skip: 2 });
  });

  it('refuses an answer that does not match the operation schema', async () => {
    sessionStore.save(makeSession());
    mockApi({ [on(myOps.getProfile)]: () => new Response('{"unexpected":true}', { status: 200 }) });
    const error = await client.call(myOps.getProfile).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INTERNAL' });
  });

  it('parses the error body and reports a lost session, except for login calls', async () => {
    const onUnauthenticated = vi.fn();
    setAuthFailureHandlers({ onUnauthenticated, onContractBlocked: vi.fn(), onPasswordChangeRequired: vi.fn() });
    mockApi({
      [on(myOps.getProfile)]: () => replyError('UNAUTHENTICATED'),
      [on(authOps.login)]: () => replyError('INVALID_CREDENTIALS'),
    });
    const error = await client.call(myOps.getProfile).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);

    const login = await client
      .call(authOps.login, { body: { loginId: 'a@example.com', loginPw: 'x' }, skipAuthRedirect: true })
      .catch((e: unknown) => e);
    expect(login).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    setAuthFailureHandlers(null);
  });

  it('sends nothing of a session being signed out but the sign-out, until another session is stored', async () => {
    sessionStore.save(makeSession());
    // A poll on its way when the sign-out starts (never answered here).
    const { calls, fetchMock } = mockApi({
      [on(myOps.getProfile)]: () => new Promise<Response>(() => undefined),
      [on(authOps.logout)]: () => noContent(),
    });
    void client.call(myOps.getProfile).catch(() => undefined);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const pollSignal = fetchMock.mock.calls[0]?.[1]?.signal ?? undefined;
    expect(pollSignal?.aborted).toBe(false);

    // What the sign-out does (features/auth/api/logout.ts).
    beginSignOut();
    await client.call(authOps.logout, { skipAuthRedirect: true });
    expect(pollSignal?.aborted).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/my/profile', 'POST /api/operators/logout']);
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get('Authorization')).toBe('Bearer token-abc');
    // The next poll with the revoked token is not sent at all.
    const later = await client.call(myOps.getProfile).catch((e: unknown) => e);
    expect(later).toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(2);

    // The login page forgets the session; the next user's calls go out.
    sessionStore.clear();
    sessionStore.save(makeSession(1, { token: 'token-next' }));
    mockApi({ [on(myOps.getProfile)]: () => replyError('NOT_FOUND') });
    const next = await client.call(myOps.getProfile).catch((e: unknown) => e);
    expect(next).toMatchObject({ status: 404 });
  });
});
