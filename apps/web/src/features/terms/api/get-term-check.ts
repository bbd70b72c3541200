import { languageSchema, myOps, type Language } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** The pending documents in the language the portal is shown in (not the account's stored one, which may be unset). */
export const termCheckQueryOptions = (lang: Language) =>
  opQuery(myOps.checkTermAgreements, queryKeys.terms.part('check', 'lang', lang), { query: { lang } });

export const useTermCheck = () => {
  const { i18n } = useTranslation();
  const parsed = languageSchema.safeParse(i18n.language);
  // A language switch fetches the texts anew; the previous answer stays on screen meanwhile.
  return useQuery({ ...termCheckQueryOptions(parsed.success ? parsed.data : 'en'), placeholderData: keepPreviousData });
};
