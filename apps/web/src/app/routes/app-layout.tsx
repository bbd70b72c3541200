import '@/styles/full';
import { Outlet, useNavigate } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import { ThemeToggle } from '@/components/theme-toggle';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { ContractBanner } from '@/features/contract/components/contract-banner';
import { PortalShell } from '@/features/layout/components/portal-shell';
import { UserMenu } from '@/features/layout/components/user-menu';
import { LocationButton } from '@/features/location/components/location-button';
import { useUpdateLanguage } from '@/features/my/api/update-language';
import type { StoredSession } from '@/lib/session';
import { RequireAuth } from '../guards/require-auth';
import { TermsGate } from '../guards/terms-gate';

function SignedInLayout({ session }: { session: StoredSession }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const updateLanguage = useUpdateLanguage();

  const signOut = () =>
    logout.mutate(undefined, {
      // Even if the server is unreachable the browser forgets the session: the login page does it
      // once it is shown. Forgetting it while this page is shown would make the sign-in guard send the
      // next user back here (`?redirect=` of the signed-out user's page).
      onSettled: () => void navigate(paths.auth.login.getHref(), { replace: true, state: { signedOut: true } }),
    });

  return (
    <PortalShell
      type={session.type}
      banner={<ContractBanner />}
      headerActions={
        <>
          <LocationButton />
          <LanguageSwitch onPersist={(language) => updateLanguage.mutate(language)} />
          <ThemeToggle />
          <UserMenu lastName={session.lastName} firstName={session.firstName} onLogout={signOut} />
        </>
      }
    >
      <Outlet />
    </PortalShell>
  );
}

export function Component() {
  return (
    <RequireAuth>
      {(session) => (
        <TermsGate>
          <SignedInLayout session={session} />
        </TermsGate>
      )}
    </RequireAuth>
  );
}
