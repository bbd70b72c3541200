import { isSystemAdmin } from '@portal/contract';
import { Forbidden } from '@/app/guards/require-role';
import { CommandCreate } from '@/features/commands/components/command-page';
import { canManageCommands } from '@/features/commands/list-params';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  if (!session || !canManageCommands(session.type)) return <Forbidden />;
  return <CommandCreate systemAdmin={isSystemAdmin(session.type)} />;
}
