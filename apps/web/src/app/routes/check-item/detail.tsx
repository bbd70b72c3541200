import { useParams } from 'react-router';
import { CheckItemPage } from '@/features/check-items/components/check-item-page';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <CheckItemPage key={id} id={id} />;
}
