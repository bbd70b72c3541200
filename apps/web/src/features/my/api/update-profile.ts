import { profileSchema, type UpdateProfileBody } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { profileQueryOptions } from './get-profile';

/** PATCH /my/profile with the `updatedAt` it was based on (stale → 409 STALE_UPDATE). */
export const updateProfile = (body: UpdateProfileBody) => api.send('PATCH', '/my/profile', profileSchema, { body });

export const useUpdateProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions().queryKey, profile),
  });
};
