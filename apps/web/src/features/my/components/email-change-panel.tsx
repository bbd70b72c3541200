import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { confirmEmailBodySchema, type Profile } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useCancelEmailChange, useConfirmEmailChange } from '../api/confirm-email-change';

/**
 * A new email address waits for the code mailed to it: the operator enters the code here and only then
 * the email changes (or drops the change).
 */
export function EmailChangePanel({ pending }: { pending: NonNullable<Profile['pendingEmail']> }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const confirm = useConfirmEmailChange();
  const cancel = useCancelEmailChange();
  const [code, setCode] = useState('');
  /** A validation key (translated) or a text already translated. */
  const [problem, setProblem] = useState<{ key?: string; text?: string }>({});

  const submit = () => {
    const parsed = confirmEmailBodySchema.safeParse({ code });
    if (!parsed.success) return setProblem({ key: parsed.error.issues[0]?.message });
    setProblem({});
    confirm.mutate(parsed.data.code, {
      onSuccess: () => showNotification({ color: 'green', message: t('my.emailChange.done') }),
      onError: (e) => {
        const detail = isApiError(e) ? e.details.find((d) => d.path === 'code') : undefined;
        setProblem(detail ? { key: detail.message } : { text: errorText(e) });
      },
    });
  };

  return (
    <Alert color="blue" title={t('my.emailChange.title')} data-testid="email-change">
      <Stack gap="xs">
        <Text size="sm">{t('my.emailChange.sent', { email: pending.email })}</Text>
        <Group align="flex-start">
          <TextInput
            label={t('my.emailChange.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                submit();
              }
            }}
            error={problem.key ? messageText(problem.key) : problem.text}
          />
          <Group gap="xs" mt={25}>
            <Button onClick={submit} loading={confirm.isPending}>
              {t('my.emailChange.confirm')}
            </Button>
            <Button variant="default" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              {t('my.emailChange.cancel')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Alert>
  );
}
