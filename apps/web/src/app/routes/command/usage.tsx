import { isAdmin } from '@portal/contract';
import { useParams } from 'react-router';
import { Forbidden } from '@/app/guards/require-role';
import { CommandUsage } from '@/features/commands/components/command-usage';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

/** /command/usage/:id: administrators (the usage operation is theirs). */
export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (!session || !isAdmin(session.type)) return <Forbidden />;
  if (id === null) return <InvalidId />;
  return <CommandUsage key={id} id={id} />;
}
