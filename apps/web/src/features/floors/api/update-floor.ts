import { floorOps, type updateFloorBodySchema } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

type Body = z.input<typeof updateFloorBodySchema>;

/** PATCH /floors/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const useUpdateFloor = (id: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(floorOps.updateFloor, {
    args: (body: Body) => ({ params: { id }, body }),
    invalidates: ['floors'],
    onSuccess: (f) => queryClient.setQueryData(queryKeys.floors.detail(id), f),
  });
};
