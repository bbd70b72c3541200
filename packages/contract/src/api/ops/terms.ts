import { termKindParams, termTextSchema, termTextsSchema, updateTermTextBodySchema } from '../../terms.ts';
import { defineOperations } from '../operation.ts';

/**
 * System administration of the terms of service and the privacy policy (both languages). Other
 * operators read them through `checkTermAgreements` when they have to agree.
 */
export const termOps = defineOperations('system', {
  getTermTexts: {
    method: 'GET',
    path: '/admin/terms',
    access: 'system',
    responses: { 200: termTextsSchema },
  },
  /** `publish`: 201, a new version everyone agrees to again; `correct`: 200, the current one corrected. */
  updateTermText: {
    method: 'PUT',
    path: '/admin/terms/:kind',
    access: 'system',
    params: termKindParams,
    body: updateTermTextBodySchema,
    responses: { 200: termTextSchema, 201: termTextSchema },
  },
});
