import { useParams } from 'react-router';
import { TemplateListPage } from '@/features/reports/components/template-list';
import { idParam } from '../shared/invalid-id';

export function Component() {
  return <TemplateListPage page={idParam(useParams().page) ?? 1} />;
}
