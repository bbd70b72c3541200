import { useParams } from 'react-router';
import { canEditMaps } from '@/features/map-editor/components/editor-page';
import { WaypointFormPage } from '@/features/map-editor/components/waypoint-form-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** /waypoint/{mapId}/{id}. */
export function Component() {
  const session = useSession();
  const params = useParams();
  const floorId = idParam(params.mapId);
  const id = idParam(params.id);
  if (floorId === null || id === null) return <InvalidId />;
  return <WaypointFormPage key={`${floorId}-${id}`} floorId={floorId} id={id} canEdit={canEditMaps(session?.type)} />;
}
