import { OrganizationList } from '@/features/organizations/components/organization-list';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  return <RequirePeopleAdmin>{() => <OrganizationList />}</RequirePeopleAdmin>;
}
