import { useParams } from 'react-router';
import { SchedulePage } from '@/features/schedules/components/schedule-page';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <SchedulePage key={id} id={id} />;
}
