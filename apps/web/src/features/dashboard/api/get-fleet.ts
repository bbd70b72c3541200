import { robotOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * GET /robots/fleet: every robot in scope with its live state (until the socket's snapshot arrives);
 * the same cache entry as the robot screens' whole fleet.
 */
export const fleetQueryOptions = () =>
  opQuery(robotOps.listFleet, queryKeys.robots.list({ fleet: null }), { query: {} });

export const useFleetQuery = (enabled: boolean) => useQuery({ ...fleetQueryOptions(), enabled });
