import { z } from 'zod';
import { robotActivityEntrySchema } from '../../activity.ts';
import { defineOperations, idParams, listQuery } from '../operation.ts';

/**
 * The robot activity log (docs/api-activity.md): one robot's entries, newest first by default,
 * paged with `?filter=` (`where` on level, at, kind, code; `limit` at most ACTIVITY_PAGE_MAX) and
 * `X-Total-Count`. The robot is looked up in the caller's scope: another tenant's robot is 404.
 */
export const activityOps = defineOperations('activity', {
  listRobotActivity: {
    method: 'GET',
    path: '/robots/:id/activity',
    access: 'user',
    params: idParams,
    query: listQuery,
    list: true,
    responses: { 200: z.array(robotActivityEntrySchema) },
  },
});
