import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { assertAuthCodeBodySchema, type ErrorCode, type LoginChallenge, type Session } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useAssertAuthCode } from '../api/assert-auth-code';
import { formatMinSec, useCountdown } from '../hooks/use-countdown';

interface AuthCodeFormProps {
  challenge: LoginChallenge;
  onSignedIn: (session: Session) => void;
  /** The code expired or was wrong too often: back to the login form with this message. */
  onRestart: (code: ErrorCode | null) => void;
}

export function AuthCodeForm({ challenge, onSignedIn, onRestart }: AuthCodeFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const secondsLeft = useCountdown(challenge.authCodeExpiredAt);
  const [problem, setProblem] = useState<unknown>(null);
  const assert = useAssertAuthCode();
  const form = useSchemaForm(assertAuthCodeBodySchema, { authDigits: '' });

  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      onSignedIn(await assert.mutateAsync({ body, pendingToken: challenge.token }));
    } catch (error) {
      if (isApiError(error) && (error.code === 'AUTH_CODE_EXPIRED' || error.code === 'AUTH_CODE_ATTEMPTS_EXCEEDED')) {
        onRestart(error.code);
        return;
      }
      setProblem(error);
      form.resetField('authDigits');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="code-title" data-testid="auth-code-form">
      <Stack>
        <Title order={1} size="h2" id="code-title">
          {t('auth.code.title')}
        </Title>
        <Text data-testid="auth-code-mode">
          {challenge.authMode === 'sms' ? t('auth.code.sentSms') : t('auth.code.sentEmail')}
        </Text>
        {secondsLeft > 0 ? (
          <Text size="sm" c="dimmed" data-testid="auth-code-countdown">
            {t('auth.code.expiresIn', { time: formatMinSec(secondsLeft) })}
          </Text>
        ) : (
          <Alert color="yellow">{t('auth.code.expired')}</Alert>
        )}
        {problem !== null && (
          <Alert color="red" role="alert" data-testid="auth-code-error">
            {errorText(problem)}
          </Alert>
        )}
        <TextInput
          label={t('auth.code.label')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          data-testid="auth-code-input"
          error={messageText(form.errors.authDigits)}
          {...form.field('authDigits')}
        />
        <Button type="submit" loading={assert.isPending} data-testid="auth-code-submit">
          {t('auth.code.submit')}
        </Button>
        <Button variant="subtle" onClick={() => onRestart(null)}>
          {t('auth.code.restart')}
        </Button>
      </Stack>
    </form>
  );
}
