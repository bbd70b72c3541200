import { useParams } from 'react-router';
import { ReportListPage } from '@/features/reports/components/report-list';
import { idParam } from '../shared/invalid-id';

/** The list's page is in the path (`/report/list/2`). */
export function Component() {
  return <ReportListPage page={idParam(useParams().page) ?? 1} />;
}
