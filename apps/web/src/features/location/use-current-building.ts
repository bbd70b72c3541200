import { useSession } from '@/lib/session';
import { useActiveBuildings } from './api/get-buildings';

/** The session's current building, looked up in the active buildings list. */
export function useCurrentBuilding() {
  const session = useSession();
  const buildings = useActiveBuildings();
  const building = buildings.data?.find((b) => b.id === session?.buildingId) ?? null;
  return { buildingId: session?.buildingId ?? null, building, query: buildings };
}
