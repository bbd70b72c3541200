import { useParams } from 'react-router';
import { ConsolePage } from '@/features/console/components/console-page';
import { RequireAdmin } from '../guards/require-role';

/** /console/:serialNo: administrators only; anyone else goes to login (spec section 6). */
export function Component() {
  const serialNo = useParams().serialNo ?? '';
  return (
    <RequireAdmin>
      <ConsolePage key={serialNo} serialNo={serialNo} />
    </RequireAdmin>
  );
}
