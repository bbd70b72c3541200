import { MAP_IMAGE_MAX_BYTES, MAP_IMAGE_TYPES } from '@portal/contract';

export type MapImageProblem = 'wrongType' | 'tooLarge';

const MB = 1024 * 1024;
export const MAP_IMAGE_MAX_MB = MAP_IMAGE_MAX_BYTES / MB;
export const sizeInMb = (bytes: number): string => (bytes / MB).toFixed(1);

/** Checks a chosen file before uploading it: PNG or JPEG (by type or extension), at most 10 MB. */
export function checkMapImage(file: Pick<File, 'type' | 'name' | 'size'>): MapImageProblem | null {
  const typeOk =
    (MAP_IMAGE_TYPES as readonly string[]).includes(file.type) ||
    (file.type === '' && /\.(png|jpe?g)$/i.test(file.name));
  if (!typeOk) return 'wrongType';
  if (file.size > MAP_IMAGE_MAX_BYTES) return 'tooLarge';
  return null;
}
