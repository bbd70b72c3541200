import { useParams } from 'react-router';
import { canManagePoses } from '@/features/poses/can-manage';
import { PoseNetworkPage } from '@/features/poses/components/pose-network-page';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <PoseNetworkPage key={id} id={id} canManage={canManagePoses(session?.type)} />;
}
