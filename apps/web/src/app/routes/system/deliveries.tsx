import { useSearchParams } from 'react-router';
import { DeliveriesTable } from '@/features/system-deliveries/components/deliveries-table';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  const [params] = useSearchParams();
  const n = Number(params.get('page') ?? '1');
  const page = Number.isInteger(n) && n >= 1 ? n : 1;
  return (
    <RequireSystemAdmin>
      <DeliveriesTable page={page} />
    </RequireSystemAdmin>
  );
}
