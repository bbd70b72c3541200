import '@/styles/full';
import { Box, Container } from '@mantine/core';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useContract } from '@/features/contract/api/get-contract';
import { useTermCheck } from '@/features/terms/api/get-term-check';
import { TermAgreement } from '@/features/terms/components/term-agreement';
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

export function Component() {
  return (
    <RequireAuth>
      {() => (
        <Container size="md" py="xl" component="main">
          <Box>
            <AgreementPage />
          </Box>
        </Container>
      )}
    </RequireAuth>
  );
}
