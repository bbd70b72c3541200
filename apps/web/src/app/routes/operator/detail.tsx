import { useParams } from 'react-router';
import { OperatorPage } from '@/features/operators/components/operator-page';
import { BadId, toId } from '../organization/id-param';
import { RequirePeopleAdmin } from '../organization/require-people-admin';

export function Component() {
  const id = toId(useParams().id);
  if (id === null) return <BadId />;
  return <RequirePeopleAdmin>{(session) => <OperatorPage key={id} id={id} viewer={session} />}</RequirePeopleAdmin>;
}
