import { useParams } from 'react-router';
import { canEditMaps } from '@/features/map-editor/components/editor-page';
import { WaypointFormPage } from '@/features/map-editor/components/waypoint-form-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** /waypoint/{mapId}/create. */
export function Component() {
  const session = useSession();
  const floorId = idParam(useParams().mapId);
  if (floorId === null) return <InvalidId />;
  return <WaypointFormPage floorId={floorId} id={null} canEdit={canEditMaps(session?.type)} />;
}
