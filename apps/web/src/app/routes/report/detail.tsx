import { useParams } from 'react-router';
import { ReportDetailPage } from '@/features/reports/components/report-detail';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  return id === null ? <InvalidId /> : <ReportDetailPage id={id} />;
}
