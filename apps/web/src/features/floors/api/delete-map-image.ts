import { floorOps } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

export const useDeleteMapImage = (id: number, _buildingId: number) =>
  useOpMutation(floorOps.deleteFloorMapImage, {
    args: () => ({ params: { id } }),
    invalidates: ['floors'],
  });
