import { languageSchema, type ErrorCode, type Language } from '@portal/contract';
import i18n from 'i18next';
import { useCallback } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from '@/locales/en';
import { ja } from '@/locales/ja';
import { isApiError } from './api-client';
import { readItem, storageKeys, writeItem } from './storage';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

export const languages: readonly Language[] = ['ja', 'en'];

/** Language = the stored choice (the account's, or the pre-login switch), else the browser's (ja or en), else en. */
export function detectLanguage(): Language {
  const stored = languageSchema.safeParse(readItem(storageKeys.language));
  if (stored.success) return stored.data;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of browser) {
    const base = languageSchema.safeParse(tag?.toLowerCase().split('-')[0]);
    if (base.success) return base.data;
  }
  return 'en';
}

export function currentLanguage(): Language {
  const parsed = languageSchema.safeParse(i18n.language);
  return parsed.success ? parsed.data : 'en';
}

const syncHtmlLang = (lng: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
};

export function initI18n(lng: Language = detectLanguage()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { ja: { translation: ja }, en: { translation: en } },
      lng,
      fallbackLng: 'en',
      supportedLngs: ['ja', 'en'],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    i18n.on('languageChanged', syncHtmlLang);
  } else if (i18n.language !== lng) {
    void i18n.changeLanguage(lng);
  }
  syncHtmlLang(i18n.language);
  return i18n;
}

/** Switches the UI language and remembers it in the browser. */
export function applyLanguage(lng: Language): void {
  writeItem(storageKeys.language, lng);
  if (i18n.language !== lng) void i18n.changeLanguage(lng);
}

type ValidationKey = keyof typeof en.validation;
const isValidationKey = (k: string): k is ValidationKey => Object.hasOwn(en.validation, k);

/** Translates a contract validation message (`validation.required`) in the current language. */
export function useMessageText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (message) => {
      if (message === undefined) return undefined;
      const key = message.startsWith('validation.') ? message.slice('validation.'.length) : message;
      return isValidationKey(key) ? t(`validation.${key}`) : t('validation.invalid');
    },
    [t],
  );
}

/** Translates any error (an ApiError's code, or a network failure) in the current language. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error) => {
      if (isApiError(error)) {
        if (error.status === 0) return t('common.networkError');
        const code: ErrorCode = error.code;
        return t(`errors.${code}`);
      }
      return t('errors.INTERNAL');
    },
    [t],
  );
}

export { i18n };
