import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** The audit log of an administrator's scope. */
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
