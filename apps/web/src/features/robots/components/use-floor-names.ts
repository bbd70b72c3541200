import { floorDisplayName } from '@portal/contract';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { floorsQueryOptions } from '../api/get-floors';

/** "2F Office" by floor id, for the floors of the buildings given (one cached call per building). */
export function useFloorNames(buildingIds: readonly number[]): ReadonlyMap<number, string> {
  const results = useQueries({ queries: buildingIds.map((id) => ({ ...floorsQueryOptions(id), staleTime: 60_000 })) });
  const stamp = results.map((r) => r.dataUpdatedAt).join(',');
  return useMemo(() => {
    const names = new Map<number, string>();
    for (const r of results)
      for (const f of r.data ?? []) {
        if (typeof f.id !== 'number') continue;
        names.set(f.id, floorDisplayName(f));
      }
    return names;
    // `results` is a new array each render; its data changes only with the stamp.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stamp]);
}
