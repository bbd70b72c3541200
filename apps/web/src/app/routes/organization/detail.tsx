import { isSystemAdmin } from '@portal/contract';
import { useParams } from 'react-router';
import { OrganizationPage } from '@/features/organizations/components/organization-page';
import { BadId, toId } from './id-param';
import { RequirePeopleAdmin } from './require-people-admin';

export function Component() {
  const id = toId(useParams().id);
  if (id === null) return <BadId />;
  return (
    <RequirePeopleAdmin>
      {(session) => <OrganizationPage key={id} id={id} systemAdmin={isSystemAdmin(session.type)} />}
    </RequirePeopleAdmin>
  );
}
