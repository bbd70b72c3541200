import { useSearchParams } from 'react-router';
import { Forbidden } from '@/app/guards/require-role';
import { canManagePoses } from '@/features/poses/can-manage';
import { PoseDefCreate, PoseDefPage } from '@/features/poses/components/pose-def-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from './shared/invalid-id';

/** /editor/pose: the pose editor, full width; `?id=` edits (or shows) a pose, no id creates one. */
export function Component() {
  const session = useSession();
  const [search] = useSearchParams();
  const raw = search.get('id');
  const canManage = canManagePoses(session?.type);
  if (raw === null || raw === '') return canManage ? <PoseDefCreate canManage editor /> : <Forbidden />;
  const id = idParam(raw);
  if (id === null) return <InvalidId />;
  return <PoseDefPage key={id} id={id} canManage={canManage} editor />;
}
