import { floorOps } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** PUT /floors/:id/map-image as multipart/form-data, the image in the field `file`. */
export const useUploadMapImage = (id: number) => {
  const queryClient = useQueryClient();
  return useOpMutation(floorOps.uploadFloorMapImage, {
    args: (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return { params: { id }, body };
    },
    invalidates: ['floors'],
    onSuccess: (f) => queryClient.setQueryData(queryKeys.floors.detail(id), f),
  });
};
