import { List, Text, VisuallyHidden } from '@mantine/core';
import { passwordRules, type PasswordRule } from '@portal/contract';
import { useTranslation } from 'react-i18next';

const shown: PasswordRule[] = ['length', 'threeKinds', 'upper', 'lower', 'digit', 'special'];

/** Live checklist of the operator password policy (contract passwordRules()). */
export function PasswordChecklist({ password }: { password: string }) {
  const { t } = useTranslation();
  const rules = passwordRules(password);
  return (
    <div>
      <Text size="sm" fw={600} id="pw-rules-title">
        {t('my.chpwd.rulesTitle')}
      </Text>
      <List
        size="sm"
        spacing={2}
        listStyleType="none"
        aria-labelledby="pw-rules-title"
        data-testid="password-checklist"
      >
        {shown.map((rule) => {
          const met = rules[rule];
          return (
            <List.Item
              key={rule}
              data-testid={`password-rule-${rule}`}
              data-met={met ? 'true' : 'false'}
              c={met ? 'green' : 'dimmed'}
              pl={rule === 'length' || rule === 'threeKinds' ? 0 : 'md'}
            >
              {/* One mark per rule (the list's own bullets are off): ✓ when met, the language's bullet when not. */}
              <span aria-hidden="true">{met ? '✓ ' : `${t('my.chpwd.unmetMark')} `}</span>
              {t(`my.chpwd.rules.${rule}`)}
              <VisuallyHidden> ({met ? t('my.chpwd.met') : t('my.chpwd.notMet')})</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
