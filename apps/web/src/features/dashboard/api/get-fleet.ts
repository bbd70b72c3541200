import { fleetRobotSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** GET /robots/fleet: every robot in scope with its live state (until the socket's snapshot arrives). */
export const getFleet = () => api.get('/robots/fleet', z.array(fleetRobotSchema));

export const fleetQueryOptions = () => queryOptions({ queryKey: ['robots', 'fleet', null], queryFn: getFleet });

export const useFleetQuery = (enabled: boolean) => useQuery({ ...fleetQueryOptions(), enabled });
