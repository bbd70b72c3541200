import { floorDetailSchema, type updateFloorBodySchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { floorKeys } from './keys';

type Body = z.infer<typeof updateFloorBodySchema>;

/** PATCH /floors/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const updateFloor = (id: number, body: Body) => api.send('PATCH', `/floors/${id}`, floorDetailSchema, { body });

export const useUpdateFloor = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => updateFloor(id, body),
    onSuccess: (f) => {
      queryClient.setQueryData(floorKeys.detail(id), f);
      void queryClient.invalidateQueries({ queryKey: ['buildings', f.buildingId, 'floors'] });
    },
  });
};
