import { initDataResultSchema, initDataSchema } from '../../init-data.ts';
import { deliverySchema, paged, pageQuerySchema } from '../../my.ts';
import { defineOperations } from '../operation.ts';

/** System administration of the foundation: the delivery log and the initial data import. */
export const adminOps = defineOperations('system', {
  listDeliveries: {
    method: 'GET',
    path: '/deliveries',
    access: 'system',
    query: pageQuerySchema,
    responses: { 200: paged(deliverySchema) },
  },
  /** All or nothing; 409 DUPLICATE lists what exists. The body may be up to 5 MB. */
  importInitData: {
    method: 'POST',
    path: '/init-data',
    access: 'system',
    body: initDataSchema,
    responses: { 201: initDataResultSchema },
  },
});
