import { useParams } from 'react-router';
import { ExportHistoryPage } from '@/features/reports/components/export-history';
import { idParam } from '../shared/invalid-id';

export function Component() {
  return <ExportHistoryPage page={idParam(useParams().page) ?? 1} />;
}
