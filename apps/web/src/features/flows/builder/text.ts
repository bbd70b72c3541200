import { useTranslation } from 'react-i18next';

type Text = (key: string, options?: Record<string, unknown>) => string;

/** `t` for keys built at run time (kinds, categories, options): the builder's keys are checked by the ja/en test. */
export function useText(): { t: Text; language: string; exists: (key: string) => boolean } {
  const { t, i18n } = useTranslation();
  return { t: t as unknown as Text, language: i18n.language, exists: (key) => i18n.exists(key) };
}
