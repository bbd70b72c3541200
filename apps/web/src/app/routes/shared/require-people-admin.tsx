import { isDataAdmin } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession, type StoredSession } from '@/lib/session';
import { Forbidden } from '../../guards/require-role';

/** Organization, operator and audit log screens: organization administrators (own organization) and system administrators. */
export function RequirePeopleAdmin({ children }: { children: (session: StoredSession) => ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  // The signed-in layout already sent anyone without a session to login.
  if (!session || !isDataAdmin(session.type)) return <Forbidden message={t('people.notAllowed')} />;
  return <>{children(session)}</>;
}
