import { buildingOps, type speechTextInputSchema } from '@portal/contract';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';

type Body = z.input<typeof speechTextInputSchema>;

export const useCreateSpeechText = (buildingId: number) =>
  useOpMutation(buildingOps.createSpeechText, {
    args: (body: Body) => ({ params: { id: buildingId }, body }),
    invalidates: ['buildings'],
  });
