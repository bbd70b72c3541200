import { isSystemAdmin } from '@portal/contract';
import { OrganizationCreatePage } from '@/features/organizations/components/organization-create-page';
import { Forbidden } from '../../guards/require-role';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  return (
    <RequirePeopleAdmin>
      {(session) => (isSystemAdmin(session.type) ? <OrganizationCreatePage /> : <Forbidden />)}
    </RequirePeopleAdmin>
  );
}
