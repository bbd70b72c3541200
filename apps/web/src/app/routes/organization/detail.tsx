import { isSystemAdmin } from '@portal/contract';
import { useParams } from 'react-router';
import { OrganizationPage } from '@/features/organizations/components/organization-page';
import { idParam, InvalidId } from '../shared/invalid-id';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return (
    <RequirePeopleAdmin>
      {(session) => <OrganizationPage key={id} id={id} systemAdmin={isSystemAdmin(session.type)} />}
    </RequirePeopleAdmin>
  );
}
