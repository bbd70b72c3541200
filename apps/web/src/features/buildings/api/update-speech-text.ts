import { buildingOps, type speechTextInputSchema } from '@portal/contract';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';

type Body = z.input<typeof speechTextInputSchema>;

export const useUpdateSpeechText = (_buildingId: number) =>
  useOpMutation(buildingOps.updateSpeechText, {
    args: ({ id, body }: { id: number; body: Body }) => ({ params: { id }, body }),
    invalidates: ['buildings'],
  });
