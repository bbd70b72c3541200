import { TermTextsPage } from '@/features/system-terms/components/term-texts-page';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  return (
    <RequireSystemAdmin>
      <TermTextsPage />
    </RequireSystemAdmin>
  );
}
