import { buildingOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDeleteSpeechText = (_buildingId: number) =>
  useOpMutation(buildingOps.deleteSpeechText, {
    args: (id: number) => ({ params: { id } }),
    invalidates: ['buildings'],
  });
