import { organizationSchema, type OrganizationInput } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /organizations (system administrators). */
export const createOrganization = (body: OrganizationInput) =>
  api.send('POST', '/organizations', organizationSchema, { body });

export const useCreateOrganization = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations', 'list'] }),
  });
};
