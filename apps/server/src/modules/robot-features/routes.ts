import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { TeleopService } from '../teleop/teleop-service.ts';

/** Robot features for teleoperation and the console (placeholder; filled in by the feature work). */
export const robotFeatureRoutes: FastifyPluginAsync<{ ctx: AppContext; teleop: TeleopService }> = async () => {};
