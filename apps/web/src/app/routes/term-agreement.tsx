import '@/styles/full';
import { Box, Button, Container, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useContract } from '@/features/contract/api/get-contract';
import { useTermCheck } from '@/features/terms/api/get-term-check';
import { TermAgreement } from '@/features/terms/components/term-agreement';
import { useUpdateLanguage } from '@/features/my/api/update-language';
import { pendingDocuments } from '@/features/terms/pending';
import { safeRedirect } from '@/lib/safe-redirect';
import { RequireAuth } from '../guards/require-auth';

function AgreementPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const check = useTermCheck();
  const onlyMc = !!check.data && !check.data.TOS && !check.data.PP && !!check.data.MC;
  const contract = useContract({ enabled: !!check.data?.MC });
  const next = safeRedirect(params.get('redirect'));

  if (check.isPending || (onlyMc && contract.isPending)) return <PageLoader />;
  if (check.isError) return <QueryError error={check.error} onRetry={() => void check.refetch()} />;
  const isOwner = contract.data?.maintenanceCompany?.isOwner ?? false;
  const documents = pendingDocuments(check.data, isOwner);
  if (documents.length === 0) return <Navigate to={next} replace />;

  return <TermAgreement documents={documents} onAgreed={() => void navigate(next, { replace: true })} />;
}

/** The terms page is no dead end: the language switch (kept on the account) and signing out. */
function TermsHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const updateLanguage = useUpdateLanguage();
  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: () => void navigate(paths.auth.login.getHref(), { replace: true, state: { signedOut: true } }),
    });
  return (
    <Group justify="flex-end" gap="xs" mb="md">
      <LanguageSwitch onPersist={(language) => updateLanguage.mutate(language)} />
      <Button variant="default" size="xs" loading={logout.isPending} onClick={signOut} data-testid="terms-logout">
        {t('userMenu.logout')}
      </Button>
    </Group>
  );
}

export function Component() {
  return (
    <RequireAuth>
      {() => (
        <Container size="md" py="xl" component="main">
          <TermsHeader />
          <Box>
            <AgreementPage />
          </Box>
        </Container>
      )}
    </RequireAuth>
  );
}
