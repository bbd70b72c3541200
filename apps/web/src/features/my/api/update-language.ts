import { myOps, type Language } from '@portal/contract';
import { useOpMutation } from '@/lib/api-hooks';

/** PUT /my/language: the account's display language (the profile and language-dependent texts refresh). */
export const useUpdateLanguage = () =>
  useOpMutation(myOps.setLanguage, { args: (language: Language) => ({ body: { language } }), invalidates: ['my'] });
