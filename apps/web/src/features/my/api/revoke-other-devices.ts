import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { devicesQueryOptions } from './get-devices';

export const revokeOtherDevices = () => api.command('DELETE', '/my/devices');

export const useRevokeOtherDevices = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherDevices,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
};
