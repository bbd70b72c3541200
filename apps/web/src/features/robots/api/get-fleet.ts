import { fleetRobotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { robotKeys } from './keys';

/** GET /robots/fleet[?buildingId=]: registry rows with their live state (shown until the socket's snapshot). */
export const getFleet = (buildingId: number | null) =>
  api.get('/robots/fleet', z.array(fleetRobotSchema), { query: { buildingId } });

export const fleetQueryOptions = (buildingId: number | null) =>
  queryOptions({ queryKey: robotKeys.fleet(buildingId), queryFn: () => getFleet(buildingId) });

export const useFleetQuery = (buildingId: number | null, enabled = true) =>
  useQuery({ ...fleetQueryOptions(buildingId), enabled });
