import { useParams } from 'react-router';
import { NotifTargetCreatePage } from '@/features/organizations/components/notif-target-page';
import { idParam, InvalidId } from '../shared/invalid-id';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <RequirePeopleAdmin>{() => <NotifTargetCreatePage key={id} organizationId={id} />}</RequirePeopleAdmin>;
}
