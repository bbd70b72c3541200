import type { AppContext } from '../../context.ts';
import { AppError, notFound, unauthenticated } from '../../lib/errors.ts';
import { canSeeBuilding, canSeeOrganization, type TenantScope } from '../../lib/scope.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { sessionResolver } from '../auth/resolve-session.ts';
import type { StoredFile } from '../../services/file-store.ts';
import { verifyFileSignature } from './signed-url.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config' | 'fileStore' | 'caches'>;

/** How a file request proves it may read the file: a signed URL, or the operator's bearer token. */
export interface FileCredentials {
  authorization: string | undefined;
  exp: number | undefined;
  sig: string | undefined;
  ip: string;
}

/**
 * Stored files for the browser. The route is public so a signed URL works in `<img src>`; without
 * a signature the bearer token is checked here by the auth plugin's own resolver, then the file must
 * be in the scope.
 */
export function fileService({ db, clock, config, fileStore, caches }: Ctx) {
  const resolveSession = sessionResolver(db, clock, caches.sessions);

  async function scopeOf(authorization: string | undefined, ip: string): Promise<TenantScope> {
    const token = bearerToken(authorization);
    if (!token) throw unauthenticated();
    return resolveSession(token, ip);
  }

  return {
    /** The file's row and bytes when the credentials allow it; another tenant's file is "not found". */
    async open(key: string, c: FileCredentials): Promise<{ file: StoredFile; bytes: () => Promise<Buffer> }> {
      if (c.sig !== undefined || c.exp !== undefined) {
        const valid =
          c.sig !== undefined &&
          c.exp !== undefined &&
          verifyFileSignature(config.secretKey, key, c.exp, c.sig, clock());
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
