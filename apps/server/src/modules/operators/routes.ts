import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Operator management (data management). */
export const operatorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
