import { speechTextSchema, type speechTextInputSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { buildingKeys } from './keys';

type Body = z.infer<typeof speechTextInputSchema>;

export const createSpeechText = (buildingId: number, body: Body) =>
  api.send('POST', `/buildings/${buildingId}/speech-texts`, speechTextSchema, { body });

export const useCreateSpeechText = (buildingId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => createSpeechText(buildingId, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: buildingKeys.speechTexts(buildingId) }),
  });
};
