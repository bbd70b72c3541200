import { buildingOps, buildingSchema, type Filter } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

const optionsSchema = z.array(buildingSchema.pick({ id: true, name: true }));
/** The list asks for id and name: each item has both. */
const options = (rows: unknown) => optionsSchema.parse(rows);

/** The buildings of one organization (id and name): an operator belongs to one of them. */
export const buildingOptionsQueryOptions = (organizationId: number) => {
  const filter: Filter = { where: { organizationId }, fields: ['id', 'name'], order: 'name ASC', limit: 1000 };
  return {
    ...opQuery(buildingOps.listBuildings, queryKeys.buildings.options('of-organization', organizationId), {
      query: { filter },
    }),
    staleTime: 60_000,
  };
};

export const useBuildingOptions = (organizationId: number | null) =>
  useQuery({ ...buildingOptionsQueryOptions(organizationId ?? 0), enabled: organizationId !== null, select: options });
