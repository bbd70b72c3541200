import type { WorkPlanDefinition, WorkPlanTemplate } from '@portal/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '@/lib/i18n';

type Text = (key: string, options?: Record<string, unknown>) => string;

/** A field message: `workPlanValidation.*` (this section), `flowValidation.*` (the shared blocks), else the core texts. */
export function useWorkPlanMessage(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  return useCallback(
    (message) => {
      if (
        (message?.startsWith('workPlanValidation.') || message?.startsWith('flowValidation.')) &&
        i18n.exists(message)
      )
        return (t as unknown as Text)(message);
      return messageText(message);
    },
    [t, i18n, messageText],
  );
}

/** A template's name and description in the reader's language (shipped templates by key). */
export function useTemplateWords(): (tpl: WorkPlanTemplate) => { name: string; description: string } {
  const { t, i18n } = useTranslation();
  return useCallback(
    (tpl) => {
      const key = `workPlans.builtin.${tpl.builtinKey ?? ''}`;
      if (tpl.builtinKey && i18n.exists(`${key}.name`))
        return {
          name: (t as unknown as Text)(`${key}.name`),
          description: (t as unknown as Text)(`${key}.description`),
        };
      return { name: tpl.name, description: tpl.description };
    },
    [t, i18n],
  );
}

/** A shipped template's steps with their titles in the reader's language (by step id). */
export function useLocalizedDefinition(): (tpl: WorkPlanTemplate) => WorkPlanDefinition {
  const { t, i18n } = useTranslation();
  return useCallback(
    (tpl) => {
      const def = structuredClone(tpl.definition);
      if (tpl.builtinKey)
        for (const s of def.steps) {
          const key = `workPlans.builtinSteps.${s.id}`;
          if (i18n.exists(key)) s.title = (t as unknown as Text)(key);
        }
      return def;
    },
    [t, i18n],
  );
}
