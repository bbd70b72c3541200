import { myOps, type agreeTermsBodySchema, type TermCheck } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

type AgreeTermsBody = z.input<typeof agreeTermsBodySchema>;

/** The agreed documents are no longer pending: update the check at once so the guard lets the user on. */
const withoutAgreed = (check: TermCheck, ids: number[]): TermCheck => ({
  TOS: check.TOS && ids.includes(check.TOS.id) ? null : check.TOS,
  PP: check.PP && ids.includes(check.PP.id) ? null : check.PP,
  MC: check.MC && ids.includes(check.MC.id) ? null : check.MC,
});

export const useAgreeTerms = () => {
  const queryClient = useQueryClient();
  // The check of every language (the key ends with it).
  const queryKey = queryKeys.terms.detail('check');
  return useOpMutation(myOps.agreeTerms, {
    args: (body: AgreeTermsBody) => ({ body }),
    invalidates: ['terms'],
    onSuccess: (_data, body) => {
      queryClient.setQueriesData<TermCheck>({ queryKey }, (old) => (old ? withoutAgreed(old, body.documentIds) : old));
    },
  });
};
