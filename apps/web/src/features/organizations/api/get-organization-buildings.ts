import { buildingOps, buildingSchema, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const namesSchema = z.array(buildingSchema.pick({ id: true, name: true }));
/** The list asks for id and name: each item has both. */
const names = (rows: unknown) => namesSchema.parse(rows);

/** The buildings of one organization (id and name), for the notification target's building choice. */
export const organizationBuildingsQueryOptions = (organizationId: number) => {
  const filter: Filter = { where: { organizationId }, fields: ['id', 'name'], order: 'name ASC', limit: 1000 };
  return {
    ...opQuery(buildingOps.listBuildings, queryKeys.buildings.options('of-organization', organizationId), {
      query: { filter },
    }),
    staleTime: 60_000,
  };
};

export const useOrganizationBuildings = (organizationId: number) =>
  useQuery({ ...organizationBuildingsQueryOptions(organizationId), select: names });
