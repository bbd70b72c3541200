import { useParams } from 'react-router';
import { canEditMaps } from '@/features/map-editor/components/editor-page';
import { WaypointListPage } from '@/features/map-editor/components/waypoint-list-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** /waypoint/{mapId}/list (the map id is the floor id). */
export function Component() {
  const session = useSession();
  const floorId = idParam(useParams().mapId);
  if (floorId === null) return <InvalidId />;
  return <WaypointListPage key={floorId} floorId={floorId} canEdit={canEditMaps(session?.type)} />;
}
