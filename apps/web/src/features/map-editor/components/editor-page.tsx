import { isDataAdmin } from '@portal/contract';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFloor } from '../api/get-floor';
import { useFloorMap } from '../api/get-floor-map';
import { EditorWorkspace } from './editor-workspace';

/** Organization and system administrators edit maps; general operators and area managers view them. */
export const canEditMaps = (type: number | undefined): boolean => type !== undefined && isDataAdmin(type);

interface EditorPageProps {
  floorId: number;
  operatorType: number | undefined;
  variant: 'v1' | 'v1_5' | 'v2';
  partial?: boolean;
  focusWaypointId?: number | null;
}

/** /editor/floor/{id} (and the v1.5 and v2 routes): loads the floor's map, then the editor. */
export function EditorPage({
  floorId,
  operatorType,
  variant,
  partial = false,
  focusWaypointId = null,
}: EditorPageProps) {
  const map = useFloorMap(floorId);
  const floor = useFloor(floorId);
  if (map.isError) return <QueryError error={map.error} onRetry={() => void map.refetch()} />;
  if (map.isPending || floor.isPending) return <PageLoader />;
  return (
    <EditorWorkspace
      key={floorId}
      map={map.data}
      floorName={floor.data?.name ?? `#${floorId}`}
      canEdit={canEditMaps(operatorType)}
      beta={variant === 'v2'}
      partial={partial}
      focusWaypointId={focusWaypointId}
    />
  );
}
