import { OperatorCreatePage } from '@/features/operators/components/operator-page';
import { RequirePeopleAdmin } from '../organization/require-people-admin';

export function Component() {
  return <RequirePeopleAdmin>{(session) => <OperatorCreatePage viewer={session} />}</RequirePeopleAdmin>;
}
