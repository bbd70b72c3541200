import { termOps, type EditableTermKind, type UpdateTermTextBody } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** GET /admin/terms (system administrators): the current terms of service and privacy policy, both languages. */
export const termTextsQueryOptions = () => opQuery(termOps.getTermTexts, queryKeys.terms.part('admin', 'texts'));

export const useTermTexts = () => useQuery(termTextsQueryOptions());

/**
 * PUT /admin/terms/:kind: `publish` (a new version everyone agrees to again) or `correct` (the
 * current version in place), based on the version's `updatedAt` (stale → 409 STALE_UPDATE).
 * Refreshes every terms view, the pending-agreement check included.
 */
export const useUpdateTermText = (kind: EditableTermKind) =>
  useOpMutation(termOps.updateTermText, {
    args: (body: UpdateTermTextBody) => ({ params: { kind }, body }),
    invalidates: ['terms'],
  });
