import { useParams } from 'react-router';
import { NotifTargetCreatePage } from '@/features/organizations/components/notif-target-page';
import { BadId, toId } from './id-param';
import { RequirePeopleAdmin } from './require-people-admin';

export function Component() {
  const id = toId(useParams().id);
  if (id === null) return <BadId />;
  return <RequirePeopleAdmin>{() => <NotifTargetCreatePage key={id} organizationId={id} />}</RequirePeopleAdmin>;
}
