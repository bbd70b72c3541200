import { adminOps, type InitData } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** POST /init-data (system administrators): all or nothing; 409 DUPLICATE lists what exists. */
export const useImportInitData = () =>
  useOpMutation(adminOps.importInitData, {
    args: (body: InitData) => ({ body }),
    // A new organization with its buildings, floors and operators.
    invalidates: ['organizations', 'buildings', 'floors', 'operators'],
  });
