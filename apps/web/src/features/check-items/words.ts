import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

/** A field message of the check item schema: `checkItemValidation.*` from this section, else the core texts. */
export function useCheckItemMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (message?.startsWith('checkItemValidation.') && i18n.exists(message))
        return (t as (key: string) => string)(message);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}
