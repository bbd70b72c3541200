import { buildingSchema, type updateBuildingBodySchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

type Body = z.infer<typeof updateBuildingBodySchema>;

/** PATCH /buildings/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const updateBuilding = ({ id, body }: { id: number; body: Body }) =>
  api.send('PATCH', `/buildings/${id}`, buildingSchema, { body });

export const useUpdateBuilding = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBuilding,
    onSuccess: (b) => {
      queryClient.setQueryData(buildingKeys.detail(b.id), b);
      void queryClient.invalidateQueries({ queryKey: ['buildings', 'page'] });
    },
  });
};
