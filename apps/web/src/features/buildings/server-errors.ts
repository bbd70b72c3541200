import type { TFunction } from 'i18next';
import { isApiError } from '@/lib/api-client';

const usageKinds = ['operators', 'robots', 'devices', 'floors', 'flows'] as const;
type UsageKind = (typeof usageKinds)[number];
const isUsageKind = (k: string): k is UsageKind => (usageKinds as readonly string[]).includes(k);

/** "3 operator(s), 1 robot(s)": what still uses a building, from IN_USE details (code = count). */
export function inUseWhat(error: unknown, t: TFunction): string {
  if (!isApiError(error)) return '';
  return error.details
    .map((d) => {
      const count = Number(d.code ?? '0');
      return isUsageKind(d.path) ? t(`buildings.delete.kinds.${d.path}`, { count }) : `${d.path} (${d.code ?? '?'})`;
    })
    .join(', ');
}
