import { initDataResultSchema, type InitData } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /init-data (system administrators): all or nothing; 409 DUPLICATE lists what exists. */
export const importInitData = (body: InitData) => api.send('POST', '/init-data', initDataResultSchema, { body });

export const useImportInitData = () => useMutation({ mutationFn: importInitData });
