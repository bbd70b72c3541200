import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

export const deleteSpeechText = (id: number) => api.command('DELETE', `/speech-texts/${id}`);

export const useDeleteSpeechText = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSpeechText,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildingKeys.speechTexts(buildingId) }),
  });
};
