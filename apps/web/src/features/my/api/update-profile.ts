import { myOps, type UpdateProfileBody } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { profileQueryOptions } from './get-profile';

/** PATCH /my/profile with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const useUpdateProfile = () => {
  const queryClient = useQueryClient();
  return useOpMutation(myOps.updateProfile, {
    args: (body: UpdateProfileBody) => ({ body }),
    invalidates: ['my'],
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions().queryKey, profile),
  });
};
