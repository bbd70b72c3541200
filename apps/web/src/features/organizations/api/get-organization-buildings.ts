import { buildingSchema, type Filter } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const namesSchema = z.array(buildingSchema.pick({ id: true, name: true }));

/** The buildings of one organization (id and name), for the notification target's building choice. */
export const getOrganizationBuildings = (organizationId: number) => {
  const filter: Filter = { where: { organizationId }, fields: ['id', 'name'], order: 'name ASC', limit: 1000 };
  return api.get('/buildings', namesSchema, { query: { filter: JSON.stringify(filter) } });
};

export const organizationBuildingsQueryOptions = (organizationId: number) =>
  queryOptions({
    queryKey: ['buildings', 'of-organization', organizationId],
    queryFn: () => getOrganizationBuildings(organizationId),
    staleTime: 60_000,
  });

export const useOrganizationBuildings = (organizationId: number) =>
  useQuery(organizationBuildingsQueryOptions(organizationId));
