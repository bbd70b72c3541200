import { isAdmin, isSystemAdmin } from '@portal/contract';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { CommandPage } from '@/features/commands/components/command-page';
import { canManageCommands } from '@/features/commands/list-params';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  const type = session?.type;
  return (
    <CommandPage
      key={id}
      id={id}
      canManage={canManageCommands(type)}
      systemAdmin={type !== undefined && isSystemAdmin(type)}
      listHref={type !== undefined && isAdmin(type) ? paths.command.list.getHref() : paths.command.readOnly.getHref()}
    />
  );
}
