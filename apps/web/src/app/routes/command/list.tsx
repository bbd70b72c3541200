import { isAdmin } from '@portal/contract';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { CommandList } from '@/features/commands/components/command-list';
import { canManageCommands } from '@/features/commands/list-params';
import { useSession } from '@/lib/session';

/** /command/list: administrators; general operators land on the read-only view (with the same filters) (spec section 6). */
export function Component() {
  const session = useSession();
  const { search } = useLocation();
  if (!session || !isAdmin(session.type))
    return <Navigate to={`${paths.command.readOnly.getHref()}${search}`} replace />;
  return <CommandList canManage={canManageCommands(session.type)} />;
}
