import { buildingOps, type buildingLinksBodySchema } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

export type LinksBody = z.infer<typeof buildingLinksBodySchema>;

/** PUT /buildings/:id/links: a secret omitted keeps the stored one, '' clears it. */
export const useUpdateLinks = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(buildingOps.updateBuildingLinks, {
    args: (body: LinksBody) => ({ params: { id: buildingId }, body }),
    invalidates: ['buildings'],
    onSuccess: (links) => queryClient.setQueryData(queryKeys.buildings.part(buildingId, 'links'), links),
  });
};
