import { z } from 'zod';
import { defineOperations } from '../operation.ts';

/**
 * Stored files (map images), served with caching headers. Public at the route level only so a
 * signed URL can be used in `<img src>`; the server checks the signature or the bearer token.
 */
export const fileOps = defineOperations('files', {
  getFile: {
    method: 'GET',
    path: '/files/:key',
    summary: 'The file bytes. Send either the bearer token or the `exp` and `sig` of a signed URL.',
    access: 'public',
    params: z.object({ key: z.string().max(64) }),
    query: z.object({
      exp: z.coerce.number().int().min(0).max(1e12).optional(),
      sig: z.string().max(100).optional(),
    }),
    responses: { 200: z.any().describe('The file bytes'), 304: z.null() },
  },
});
