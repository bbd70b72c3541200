import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Stored files (map images), served with caching headers. */
export const fileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
