import { buildingOps, type updateSpeechTextBodySchema } from '@portal/contract';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';

/** The edit names the version it was based on (`updatedAt`): a stale one is 409 STALE_UPDATE. */
type Body = z.input<typeof updateSpeechTextBodySchema>;

export const useUpdateSpeechText = (_buildingId: number) =>
  useOpMutation(buildingOps.updateSpeechText, {
    args: ({ id, body }: { id: number; body: Body }) => ({ params: { id }, body }),
    invalidates: ['buildings'],
  });
