import type { Kysely } from 'kysely';
import type { Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { sha256 } from '../../lib/crypto.ts';
import type { Clock } from '../../lib/time.ts';
import type { ReadCache } from '../../services/read-cache.ts';
import { checkContract, checkIpAllowList } from './access-rules.ts';
import { sessionRepo, type SessionFacts } from './session-repo.ts';

const TOUCH_INTERVAL_MS = 60_000;

export interface ResolveOptions {
  /** A pending two-step session (only `assertAuthCode` accepts one). */
  pending?: boolean;
  /** The route stays reachable while the operator must change their password. */
  allowDuringPasswordChange?: boolean;
  /** The request's UI language (`Accept-Language`): recorded as the operator's last used one. */
  language?: 'ja' | 'en' | null;
}

/**
 * The per-request rules of a bearer token, in one place for every caller (the auth plugin, and
 * routes that must stay public for another reason, such as signed file URLs): session alive,
 * account active, the building's IP allow-list, the contract state, a pending password change.
 */
export function sessionResolver(db: Kysely<Database>, clock: Clock, cache?: ReadCache) {
  const sessions = sessionRepo(db);
  // The session's facts and its building's IP rules, read once per data version (see ReadCache).
  const load = async (tokenHash: string) => {
    const facts = await sessions.findByTokenHash(tokenHash);
    const rules = facts?.ipRestricted && facts.buildingId != null ? await sessions.ipRules(facts.buildingId) : [];
    return facts ? { facts, rules } : null;
  };
  return async function resolveSession(token: string, ip: string, opts: ResolveOptions = {}): Promise<Principal> {
    const tokenHash = sha256(token);
    const found = cache ? await cache.get(`session:${tokenHash}`, () => load(tokenHash)) : await load(tokenHash);
    const facts = found?.facts;
    const now = clock();
    if (!facts || facts.revokedAt || facts.expiresAt < now.toISOString() || facts.deletedAt) throw unauthenticated();
    if (opts.pending) {
      if (facts.state !== 'pending') throw unauthenticated();
      return toPrincipal(facts);
    }
    if (facts.state !== 'active') throw new AppError('AUTH_CODE_REQUIRED', 'The verification code is required');
    if (facts.operatorStatus !== 1) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
    await checkIpAllowList(facts, ip, async () => found.rules);
    checkContract(facts, now);
    // An operator told to change their password reaches only what changing it needs.
    if (facts.mustChangePassword === 1 && opts.allowDuringPasswordChange !== true) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change your password before continuing');
    }
    if (opts.language && opts.language !== facts.lastLanguage) {
      await sessions.setLastLanguage(facts.operatorId, opts.language);
      // Like the touch below: the cached facts follow the write.
      facts.lastLanguage = opts.language;
    }
    if (now.getTime() - Date.parse(facts.lastUsedAt) > TOUCH_INTERVAL_MS) {
      await sessions.touch(facts.sessionId, now.toISOString());
      // The touch does not change the data version; keep the cached facts in step with it.
      facts.lastUsedAt = now.toISOString();
    }
    return toPrincipal(facts);
  };
}
export type ResolveSession = ReturnType<typeof sessionResolver>;

function toPrincipal(f: SessionFacts): Principal {
  return {
    sessionId: f.sessionId,
    operatorId: f.operatorId,
    organizationId: f.organizationId,
    buildingId: f.buildingId,
    type: f.type,
    language: f.language === 'ja' || f.language === 'en' ? f.language : null,
    lastLanguage: f.lastLanguage === 'ja' || f.lastLanguage === 'en' ? f.lastLanguage : null,
    email: f.email,
    firstName: f.firstName,
    lastName: f.lastName,
    labsEnabled: f.labOption === 1,
  };
}
