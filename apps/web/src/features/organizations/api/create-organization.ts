import { organizationOps, type OrganizationInput } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /organizations (system administrators). Every view of organizations refreshes. */
export const useCreateOrganization = () =>
  useOpMutation(organizationOps.createOrganization, {
    args: (body: OrganizationInput) => ({ body }),
    invalidates: ['organizations'],
  });
