import { useParams, useSearchParams } from 'react-router';
import { SettingHistory } from '@/features/robots/components/setting-history';
import { positiveInt } from '@/lib/list-params';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  const [search] = useSearchParams();
  if (id === null) return <InvalidId />;
  return <SettingHistory key={id} id={id} page={positiveInt(search.get('page')) ?? 1} />;
}
