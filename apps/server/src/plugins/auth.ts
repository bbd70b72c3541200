import fp from 'fastify-plugin';
import { isAdmin, isSystemAdmin } from '@portal/contract';
import type { AppContext, Principal } from '../context.ts';
import { AppError, forbidden, unauthenticated } from '../lib/errors.ts';
import { sha256 } from '../lib/crypto.ts';
import { sessionRepo, type SessionFacts } from '../modules/auth/session-repo.ts';
import { checkContract, checkIpAllowList } from '../modules/auth/access-rules.ts';

const TOUCH_INTERVAL_MS = 60_000;

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
  const sessions = sessionRepo(ctx.db);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'user';
    if (access === 'public' || !request.routeOptions.url) return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    const facts = await sessions.findByTokenHash(sha256(token));
    const now = ctx.clock();
    if (!facts || facts.revokedAt || facts.expiresAt < now.toISOString() || facts.deletedAt) throw unauthenticated();
    if (access === 'pending') {
      if (facts.state !== 'pending') throw unauthenticated();
      request.principal = toPrincipal(facts);
      return;
    }
    if (facts.state !== 'active') throw new AppError('AUTH_CODE_REQUIRED', 'The verification code is required');
    if (facts.operatorStatus !== 1) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
    await checkIpAllowList(facts, request.ip, sessions.ipRules);
    checkContract(facts, now);
    // An operator told to change their password reaches only what changing it needs.
    if (facts.mustChangePassword === 1 && request.routeOptions.config?.allowDuringPasswordChange !== true) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change your password before continuing');
    }
    if (access === 'admin' && !isAdmin(facts.type)) throw forbidden();
    if (access === 'system' && !isSystemAdmin(facts.type)) throw forbidden();
    if (now.getTime() - Date.parse(facts.lastUsedAt) > TOUCH_INTERVAL_MS) {
      await sessions.touch(facts.sessionId, now.toISOString());
    }
    request.principal = toPrincipal(facts);
  });
});

function toPrincipal(f: SessionFacts): Principal {
  return {
    sessionId: f.sessionId,
    operatorId: f.operatorId,
    organizationId: f.organizationId,
    buildingId: f.buildingId,
    type: f.type,
    language: f.language === 'ja' || f.language === 'en' ? f.language : null,
    email: f.email,
    firstName: f.firstName,
    lastName: f.lastName,
    labsEnabled: f.labOption === 1,
  };
}

/** The principal of a route whose access is not public; a programming error otherwise. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}
