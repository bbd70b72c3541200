import { useParams } from 'react-router';
import { SettingHistory } from '@/features/robots/components/setting-history';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <SettingHistory key={id} id={id} />;
}
