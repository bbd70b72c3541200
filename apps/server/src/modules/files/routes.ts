import type { FastifyPluginAsync } from 'fastify';
import { fileOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { routes } from '../../lib/route.ts';
import { fileService } from './file-service.ts';

/**
 * Stored files (map images), served with caching headers. Public at the route level only so a
 * signed URL can be used in `<img src>`; the handler checks the signature or the bearer token.
 */
export const fileRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const files = fileService(ctx);

  routes(app, fileOps, {
    getFile: async (req, reply) => {
      const { file, bytes } = await files.open(req.params.key, {
        authorization: req.headers.authorization,
        exp: req.query.exp,
        sig: req.query.sig,
        ip: req.ip,
      });
      const etag = `"${file.sha256}"`;
      reply
        .header('cache-control', 'private, max-age=3600')
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff');
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
        reply.code(304);
        return null;
      }
      reply.type(file.contentType);
      return bytes();
    },
  });
};
