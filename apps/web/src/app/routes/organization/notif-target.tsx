import { useParams } from 'react-router';
import { NotifTargetEditPage } from '@/features/organizations/components/notif-target-page';
import { idParam, InvalidId } from '../shared/invalid-id';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  const params = useParams();
  const id = idParam(params.id);
  const ntid = idParam(params.ntid);
  if (id === null || ntid === null) return <InvalidId />;
  return (
    <RequirePeopleAdmin>
      {() => <NotifTargetEditPage key={`${id}-${ntid}`} organizationId={id} id={ntid} />}
    </RequirePeopleAdmin>
  );
}
