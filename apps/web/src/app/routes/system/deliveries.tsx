import { DeliveriesTable } from '@/features/system-deliveries/components/deliveries-table';
import { RequireSystemAdmin } from '../../guards/require-role';

export function Component() {
  return (
    <RequireSystemAdmin>
      <DeliveriesTable />
    </RequireSystemAdmin>
  );
}
