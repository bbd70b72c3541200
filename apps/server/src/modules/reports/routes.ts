import type { FastifyPluginAsync } from 'fastify';
import { reportOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../lib/route.ts';
import { reportService } from './report-service.ts';

/** Reports (docs/api-reports.md): the list and one report. Exports register their own operations. */
export const reportRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const reports = reportService(ctx);
  const { listReports, getReport } = reportOps;
  routes(
    app,
    { listReports, getReport },
    {
      listReports: async (req) => reports.list(principalOf(req), req.query.filter),
      getReport: async (req) => reports.get(principalOf(req), req.params.id),
    },
  );
};
