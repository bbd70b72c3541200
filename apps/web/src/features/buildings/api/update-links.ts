import { buildingLinksSchema, type buildingLinksBodySchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export type LinksBody = z.infer<typeof buildingLinksBodySchema>;

/** PUT /buildings/:id/links: a secret omitted keeps the stored one, '' clears it. */
export const updateLinks = (buildingId: number, body: LinksBody) =>
  api.send('PUT', `/buildings/${buildingId}/links`, buildingLinksSchema, { body });

export const useUpdateLinks = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LinksBody) => updateLinks(buildingId, body),
    onSuccess: (links) => queryClient.setQueryData(buildingKeys.links(buildingId), links),
  });
};
