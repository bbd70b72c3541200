import { organizationSchema, type UpdateOrganizationBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { organizationQueryOptions } from './get-organization';

/** PATCH /organizations/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const updateOrganization = ({ id, body }: { id: number; body: UpdateOrganizationBody }) =>
  api.send('PATCH', `/organizations/${id}`, organizationSchema, { body });

export const useUpdateOrganization = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: async (org) => {
      queryClient.setQueryData(organizationQueryOptions(org.id).queryKey, org);
      await queryClient.invalidateQueries({ queryKey: ['organizations', 'list'] });
    },
  });
};
