import { buildingOps, type updateBuildingBodySchema } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

type Body = z.input<typeof updateBuildingBodySchema>;

/** PATCH /buildings/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const useUpdateBuilding = () => {
  const queryClient = useQueryClient();
  return useOpMutation(buildingOps.updateBuilding, {
    args: ({ id, body }: { id: number; body: Body }) => ({ params: { id }, body }),
    // Every view of buildings refreshes: lists, the building filter, the location switcher.
    invalidates: ['buildings'],
    onSuccess: (b) => queryClient.setQueryData(queryKeys.buildings.detail(b.id), b),
  });
};
