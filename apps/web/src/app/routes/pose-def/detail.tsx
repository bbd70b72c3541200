import { useParams } from 'react-router';
import { canManagePoses } from '@/features/poses/can-manage';
import { PoseDefPage } from '@/features/poses/components/pose-def-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <PoseDefPage key={id} id={id} canManage={canManagePoses(session?.type)} />;
}
