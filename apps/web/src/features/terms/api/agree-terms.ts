import type { agreeTermsBodySchema, TermCheck } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { termCheckQueryOptions } from './get-term-check';

type AgreeTermsBody = z.infer<typeof agreeTermsBodySchema>;

export const agreeTerms = (body: AgreeTermsBody) => api.command('POST', '/my/term-agreements', { body });

/** The agreed documents are no longer pending: update the check at once so the guard lets the user on. */
const withoutAgreed = (check: TermCheck, ids: number[]): TermCheck => ({
  TOS: check.TOS && ids.includes(check.TOS.id) ? null : check.TOS,
  PP: check.PP && ids.includes(check.PP.id) ? null : check.PP,
  MC: check.MC && ids.includes(check.MC.id) ? null : check.MC,
});

export const useAgreeTerms = () => {
  const queryClient = useQueryClient();
  const { queryKey } = termCheckQueryOptions();
  return useMutation({
    mutationFn: agreeTerms,
    onSuccess: async (_data, body) => {
      queryClient.setQueryData<TermCheck>(queryKey, (old) => (old ? withoutAgreed(old, body.documentIds) : old));
      await queryClient.invalidateQueries({ queryKey });
    },
  });
};
