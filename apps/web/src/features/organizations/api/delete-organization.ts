import { organizationOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** DELETE /organizations/:id (system administrators; 409 IN_USE while anything hangs on it). */
export const useDeleteOrganization = () =>
  useOpMutation(organizationOps.deleteOrganization, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['organizations'],
  });
