import { mapRevisionSummarySchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/** GET /floors/:id/map/revisions: newest first. */
export const getMapRevisions = (floorId: number) =>
  api.get(`/floors/${floorId}/map/revisions`, z.array(mapRevisionSummarySchema));

export const mapRevisionsQueryOptions = (floorId: number) =>
  queryOptions({ queryKey: mapKeys.revisions(floorId), queryFn: () => getMapRevisions(floorId) });

export const useMapRevisions = (floorId: number, enabled: boolean) =>
  useQuery({ ...mapRevisionsQueryOptions(floorId), enabled });
