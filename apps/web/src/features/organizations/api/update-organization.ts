import { organizationOps, type UpdateOrganizationBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PATCH /organizations/:id with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const useUpdateOrganization = () => {
  const queryClient = useQueryClient();
  return useOpMutation(organizationOps.updateOrganization, {
    args: ({ id, body }: { id: number; body: UpdateOrganizationBody }) => ({ params: { id }, body }),
    // Every view of organizations refreshes: lists, the organization choices of other screens.
    invalidates: ['organizations'],
    onSuccess: (org) => queryClient.setQueryData(queryKeys.organizations.detail(org.id), org),
  });
};
