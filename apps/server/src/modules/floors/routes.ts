import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Floors and their map images. */
export const floorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
