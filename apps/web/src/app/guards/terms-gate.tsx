import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useContract } from '@/features/contract/api/get-contract';
import { useTermCheck } from '@/features/terms/api/get-term-check';
import { agreementNeeded } from '@/features/terms/pending';

/** Pending TOS or PP → /term/agreement; only MC pending → only for the maintenance company's owner. */
export function useAgreementRequired(): { pending: boolean; error: unknown; retry: () => void; required: boolean } {
  const check = useTermCheck();
  const needed = check.data ? agreementNeeded(check.data) : false;
  const contract = useContract({ enabled: needed === null });
  if (check.isPending) return { pending: true, error: null, retry: () => undefined, required: false };
  if (check.isError) return { pending: false, error: check.error, retry: () => void check.refetch(), required: false };
  if (needed !== null) return { pending: false, error: null, retry: () => undefined, required: needed };
  if (contract.isPending) return { pending: true, error: null, retry: () => undefined, required: false };
  return {
    pending: false,
    error: null,
    retry: () => undefined,
    required: contract.data?.maintenanceCompany?.isOwner ?? false,
  };
}

export function TermsGate({ children }: { children: ReactNode }) {
  const location = useLocation();
  const state = useAgreementRequired();
  if (state.pending) return <PageLoader />;
  if (state.error) return <QueryError error={state.error} onRetry={state.retry} />;
  if (state.required)
    return <Navigate to={paths.term.agreement.getHref(location.pathname + location.search)} replace />;
  return <>{children}</>;
}
