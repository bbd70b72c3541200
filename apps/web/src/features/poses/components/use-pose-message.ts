import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

type PoseValidationKey = keyof typeof import('@/locales/en/poses').posesEn.poseValidation;

/** Translates a field message: `poseValidation.*` from this section, `validation.*` from the core texts. */
export function usePoseMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (message?.startsWith('poseValidation.') && i18n.exists(message))
        return t(message as `poseValidation.${PoseValidationKey}`);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}
