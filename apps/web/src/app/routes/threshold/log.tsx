import { useParams } from 'react-router';
import { ThresholdLogPage } from '@/features/thresholds/components/threshold-log';
import { idParam } from '../shared/invalid-id';

/** /threshold/log/{page}: the page is in the path. */
export function Component() {
  const page = idParam(useParams().page) ?? 1;
  return <ThresholdLogPage page={page} />;
}
