import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

/** Translates a field message: `thresholdValidation.*` of the section, `validation.*` of the core texts. */
export function useThresholdMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (message?.startsWith('thresholdValidation.') && i18n.exists(message))
        return (t as (key: string) => string)(message);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}
