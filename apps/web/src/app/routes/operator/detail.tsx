import { useParams } from 'react-router';
import { OperatorPage } from '@/features/operators/components/operator-page';
import { idParam, InvalidId } from '../shared/invalid-id';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <RequirePeopleAdmin>{(session) => <OperatorPage key={id} id={id} viewer={session} />}</RequirePeopleAdmin>;
}
