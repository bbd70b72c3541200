import { errorBodySchema, floorDetailSchema } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiBase } from '@/config/env';
import { ApiError, isErrorCode, parseWith } from '@/lib/api-client';
import { busyStore } from '@/lib/busy';
import { sessionStore } from '@/lib/session';
import { floorKeys } from './keys';

/**
 * PUT /floors/:id/map-image as multipart (field `file`). The shared client speaks JSON only, so
 * this one call uses fetch itself, with the same bearer, busy overlay and error shape.
 */
export async function uploadMapImage(id: number, file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  const token = sessionStore.get()?.token;
  busyStore.start();
  let res: Response;
  let data: unknown = null;
  try {
    res = await fetch(`${apiBase()}/floors/${id}/map-image`, {
      method: 'PUT',
      body,
      credentials: 'include',
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
    const text = await res.text();
    try {
      data = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      data = text;
    }
  } catch {
    throw new ApiError(0, 'INTERNAL', 'Network error');
  } finally {
    busyStore.end();
  }
  if (res.ok) return parseWith(floorDetailSchema, data);
  const parsed = errorBodySchema.safeParse(data);
  if (parsed.success)
    throw new ApiError(res.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.details);
  const code = res.status === 413 ? 'PAYLOAD_TOO_LARGE' : res.status === 415 ? 'UNSUPPORTED_FILE_TYPE' : 'INTERNAL';
  throw new ApiError(res.status, isErrorCode(code) ? code : 'INTERNAL', `HTTP ${res.status}`);
}

export const useUploadMapImage = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadMapImage(id, file),
    onSuccess: (f) => {
      queryClient.setQueryData(floorKeys.detail(id), f);
      void queryClient.invalidateQueries({ queryKey: ['buildings', f.buildingId, 'floors'] });
    },
  });
};
