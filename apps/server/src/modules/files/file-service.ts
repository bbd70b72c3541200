import type { AppContext } from '../../context.ts';
import { AppError, notFound, unauthenticated } from '../../lib/errors.ts';
import { sha256 } from '../../lib/crypto.ts';
import { canSeeBuilding, canSeeOrganization, type TenantScope } from '../../lib/scope.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { checkContract, checkIpAllowList } from '../auth/access-rules.ts';
import { sessionRepo } from '../auth/session-repo.ts';
import type { StoredFile } from '../../services/file-store.ts';
import { verifyFileSignature } from './signed-url.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config' | 'fileStore'>;

/** How a file request proves it may read the file: a signed URL, or the operator's bearer token. */
export interface FileCredentials {
  authorization: string | undefined;
  exp: number | undefined;
  sig: string | undefined;
  ip: string;
}

/**
 * Stored files for the browser. The route is public so a signed URL works in `<img src>`; without
 * a signature the bearer token is checked here with the same per-request rules as the auth plugin
 * (session alive, account active, IP allow-list, contract, password change), then the file must be
 * in the scope. Keep the two in step (better: let plugins/auth.ts export its resolver).
 */
export function fileService({ db, clock, config, fileStore }: Ctx) {
  const sessions = sessionRepo(db);

  async function scopeOf(authorization: string | undefined, ip: string): Promise<TenantScope> {
    const token = bearerToken(authorization);
    if (!token) throw unauthenticated();
    const facts = await sessions.findByTokenHash(sha256(token));
    const now = clock();
    if (!facts || facts.revokedAt || facts.expiresAt < now.toISOString() || facts.deletedAt || facts.state !== 'active') {
      throw unauthenticated();
    }
    if (facts.operatorStatus !== 1) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled');
    await checkIpAllowList(facts, ip, sessions.ipRules);
    checkContract(facts, now);
    // Mirrors the auth plugin's rule for operators who must change their password first.
    if ((facts as { mustChangePassword?: number }).mustChangePassword === 1) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change your password before continuing');
    }
    return { organizationId: facts.organizationId, buildingId: facts.buildingId, type: facts.type };
  }

  return {
    /** The file's row and bytes when the credentials allow it; another tenant's file is "not found". */
    async open(key: string, c: FileCredentials): Promise<{ file: StoredFile; bytes: () => Promise<Buffer> }> {
      if (c.sig !== undefined || c.exp !== undefined) {
        const valid = c.sig !== undefined && c.exp !== undefined && verifyFileSignature(config.secretKey, key, c.exp, c.sig, clock());
        if (!valid) throw new AppError('FORBIDDEN', 'The link has expired or is not valid; reload the page');
        const file = await fileStore.find(key);
        if (!file) throw notFound('File');
        return { file, bytes: () => read(file) };
      }
      const scope = await scopeOf(c.authorization, c.ip);
      const file = await fileStore.find(key);
      const visible =
        file &&
        (file.buildingId == null
          ? canSeeOrganization(scope, file.organizationId)
          : canSeeBuilding(scope, { id: file.buildingId, organizationId: file.organizationId }));
      if (!file || !visible) throw notFound('File');
      return { file, bytes: () => read(file) };
    },
  };

  async function read(file: StoredFile): Promise<Buffer> {
    const bytes = await fileStore.read(file.key);
    if (!bytes) throw notFound('File');
    return bytes;
  }
}
