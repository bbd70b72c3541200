import { isCommonMode, type MappedCommand } from '@portal/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

/** A field message of the command mapping schema: `commandMappingValidation.*` from this section, else the core texts. */
export function useCommandMappingMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (message?.startsWith('commandMappingValidation.') && i18n.exists(message))
        return (t as (key: string) => string)(message);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}

/** "Mode 10" or "Common 110 (mode 10)". */
export function useModeLabel(): (mode: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (mode) =>
      isCommonMode(mode)
        ? t('commandMappings.commonMode', { mode, base: mode - 100 })
        : t('commandMappings.mode', { mode }),
    [t],
  );
}

/** The name of a mapped command's kind (a robot action or an order command). */
export const commandKey = (c: MappedCommand): string => (c.kind === 'action' ? c.action.type : c.command);

/** A key's name as printed on the keyboard (`KeyG` -> G, `Digit1` -> 1). */
export const keyName = (code: string): string => code.replace(/^Key/, '').replace(/^Digit/, '');
