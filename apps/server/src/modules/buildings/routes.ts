import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** Buildings and their sections: groups, speech texts, IP restriction, system links. */
export const buildingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async () => {};
