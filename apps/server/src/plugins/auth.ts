import fp from 'fastify-plugin';
import { isAdmin, isSystemAdmin } from '@portal/contract';
import type { AppContext, Principal } from '../context.ts';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import { sessionResolver } from '../modules/auth/resolve-session.ts';
import { requestLanguage } from '../lib/language.ts';

export const bearerToken = (header: string | undefined): string | null => {
  const m = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header ?? '');
  return m?.[1] ?? null;
};

/**
 * Authentication and authorization by route: `config.access` says who may call it (default: any
 * signed-in operator). Runs on request, before validation, so an unauthenticated call is a 401
 * whatever its body.
 */
export const authPlugin = fp<{ ctx: AppContext }>(async (app, { ctx }) => {
  const resolveSession = sessionResolver(ctx.db, ctx.clock, ctx.caches.sessions);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const access = config?.access ?? 'user';
    if (access === 'public' || !request.routeOptions.url) return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    const principal = await resolveSession(token, request.ip, {
      pending: access === 'pending',
      allowDuringPasswordChange: config?.allowDuringPasswordChange === true,
      language: requestLanguage(request.headers['accept-language']),
    });
    if (access === 'admin' && !isAdmin(principal.type)) throw forbidden();
    if (access === 'system' && !isSystemAdmin(principal.type)) throw forbidden();
    request.principal = principal;
  });
});

/** The principal of a route whose access is not public; a programming error otherwise. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}
