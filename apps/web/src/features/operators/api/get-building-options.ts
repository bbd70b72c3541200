import { buildingSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const optionsSchema = z.array(buildingSchema.pick({ id: true, name: true }));

/** The buildings of one organization (id and name): an operator belongs to one of them. */
export const getBuildingOptions = (organizationId: number) => {
  const filter: Filter = { where: { organizationId }, fields: ['id', 'name'], order: 'name ASC', limit: 1000 };
  return api.get('/buildings', optionsSchema, { query: { filter: JSON.stringify(filter) } });
};

export const buildingOptionsQueryOptions = (organizationId: number) =>
  queryOptions({
    queryKey: ['buildings', 'of-organization', organizationId],
    queryFn: () => getBuildingOptions(organizationId),
    staleTime: 60_000,
  });

export const useBuildingOptions = (organizationId: number | null) =>
  useQuery({ ...buildingOptionsQueryOptions(organizationId ?? 0), enabled: organizationId !== null });
