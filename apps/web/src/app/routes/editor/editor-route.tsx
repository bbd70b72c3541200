import { useParams, useSearchParams } from 'react-router';
import { EditorPage } from '@/features/map-editor/components/editor-page';
import { positiveInt } from '@/lib/list-params';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** The editor routes differ only in their variant and the tool they open with. */
export function EditorRoute({ variant, partial = false }: { variant: 'v1' | 'v1_5' | 'v2'; partial?: boolean }) {
  const session = useSession();
  const id = idParam(useParams().id);
  const [search] = useSearchParams();
  if (id === null) return <InvalidId />;
  return (
    <EditorPage
      key={`${id}-${partial}`}
      floorId={id}
      operatorType={session?.type}
      variant={variant}
      partial={partial}
      focusWaypointId={positiveInt(search.get('waypoint'))}
    />
  );
}
