import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Organizations and their notification targets (data management). */
export const organizationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
