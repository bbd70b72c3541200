import { speechTextSchema, type speechTextInputSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

type Body = z.infer<typeof speechTextInputSchema>;

export const updateSpeechText = (id: number, body: Body) =>
  api.send('PATCH', `/speech-texts/${id}`, speechTextSchema, { body });

export const useUpdateSpeechText = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Body }) => updateSpeechText(id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildingKeys.speechTexts(buildingId) }),
  });
};
