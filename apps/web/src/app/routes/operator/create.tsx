import { OperatorCreatePage } from '@/features/operators/components/operator-page';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  return <RequirePeopleAdmin>{(session) => <OperatorCreatePage viewer={session} />}</RequirePeopleAdmin>;
}
