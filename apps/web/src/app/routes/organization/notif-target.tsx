import { useParams } from 'react-router';
import { NotifTargetEditPage } from '@/features/organizations/components/notif-target-page';
import { BadId, toId } from './id-param';
import { RequirePeopleAdmin } from './require-people-admin';

export function Component() {
  const params = useParams();
  const id = toId(params.id);
  const ntid = toId(params.ntid);
  if (id === null || ntid === null) return <BadId />;
  return (
    <RequirePeopleAdmin>
      {() => <NotifTargetEditPage key={`${id}-${ntid}`} organizationId={id} id={ntid} />}
    </RequirePeopleAdmin>
  );
}
