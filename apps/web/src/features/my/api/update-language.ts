import type { Language } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** PUT /my/language: the account's display language. */
export const updateLanguage = (language: Language) => api.command('PUT', '/my/language', { body: { language } });

export const useUpdateLanguage = () => useMutation({ mutationFn: updateLanguage });
