import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

/** Translates a `validation.*` key: the map editor's own first, then the core texts. */
export function useMapMessageText(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const core = useMessageText();
  return useCallback(
    (message) => {
      if (message === undefined) return undefined;
      const key = message.startsWith('validation.') ? message.slice('validation.'.length) : message;
      const own = `mapEditor.validation.${key}`;
      return i18n.exists(own) ? t(own as 'mapEditor.validation.outsideMap') : core(message);
    },
    [t, i18n, core],
  );
}
