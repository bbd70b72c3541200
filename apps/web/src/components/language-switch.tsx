import { languageSchema, type Language } from '@portal/contract';
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyLanguage, languages } from '@/lib/i18n';

interface LanguageSwitchProps {
  /** Signed in: persist the choice on the account too. */
  onPersist?: (language: Language) => void;
}

export function LanguageSwitch({ onPersist }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label={t('language.label')}
      data-testid="language-switch"
      size="xs"
      value={i18n.language}
      data={languages.map((l) => ({ value: l, label: t(`language.${l}`) }))}
      onChange={(e) => {
        const parsed = languageSchema.safeParse(e.currentTarget.value);
        if (!parsed.success) return;
        applyLanguage(parsed.data);
        onPersist?.(parsed.data);
      }}
    />
  );
}
