import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { fileService } from './file-service.ts';

const keyParams = z.object({ key: z.string().max(64) });
const signedQuery = z.object({
  exp: z.coerce.number().int().min(0).max(1e12).optional(),
  sig: z.string().max(100).optional(),
});

/**
 * Stored files (map images), served with caching headers. Public at the route level only so a
 * signed URL can be used in `<img src>`; the handler checks the signature or the bearer token.
 */
export const fileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const files = fileService(ctx);

  app.get(
    '/files/:key',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getFile',
        tags: ['files'],
        description: 'The file bytes. Send either the bearer token or the `exp` and `sig` of a signed URL.',
        params: keyParams,
        querystring: signedQuery,
        response: { 200: z.any().describe('The file bytes'), 304: z.null(), '4xx': errorBodySchema },
      },
    },
    async (req, reply) => {
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
        return reply.code(304).send(null);
      }
      return reply.type(file.contentType).send(await bytes());
    },
  );
};
