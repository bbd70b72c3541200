import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

/** Translates a field message: `flowValidation.*` and `flowEditor.*` of the flows section, `validation.*` of the core texts. */
export function useFlowMessage(): (message: string | undefined, params?: Record<string, string>) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message, params) => {
      if (
        message &&
        (message.startsWith('flowValidation.') || message.startsWith('flowEditor.')) &&
        i18n.exists(message)
      )
        return (t as (key: string, o?: Record<string, string>) => string)(message, params);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}
