import { TemplateCreatePage } from '@/features/reports/components/template-create';

export function Component() {
  return <TemplateCreatePage />;
}
