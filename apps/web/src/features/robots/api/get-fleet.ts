import { robotOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /robots/fleet[?buildingId=]: registry rows with their live state (shown until the socket's snapshot). */
export const fleetQueryOptions = (buildingId: number | null) =>
  opQuery(robotOps.listFleet, queryKeys.robots.list({ fleet: buildingId }), {
    query: { buildingId: buildingId ?? undefined },
  });

export const useFleetQuery = (buildingId: number | null, enabled = true) =>
  useQuery({ ...fleetQueryOptions(buildingId), enabled });
