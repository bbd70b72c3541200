import { Anchor, Button, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { loginBodySchema, type LoginChallenge, type Session } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useMessageText } from '@/lib/i18n';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useLogin } from '../api/login';
import { loginProblem, type LoginProblem } from '../login-error';
import { AuthCodeForm } from './auth-code-form';
import { LoginProblemAlert } from './login-problem-alert';

interface LoginFormProps {
  onSignedIn: (session: Session) => void;
}

export function LoginForm({ onSignedIn }: LoginFormProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  const [problem, setProblem] = useState<LoginProblem | null>(null);
  const loginMutation = useLogin();
  const form = useSchemaForm(loginBodySchema, { loginId: '', loginPw: '' });
  const { errors } = form;

  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      const result = await loginMutation.mutateAsync(body);
      if (result.kind === 'challenge') setChallenge(result.challenge);
      else onSignedIn(result.session);
    } catch (error) {
      setProblem(loginProblem(error));
    }
  });

  if (challenge) {
    return (
      <AuthCodeForm
        challenge={challenge}
        onSignedIn={onSignedIn}
        onRestart={(code) => {
          setChallenge(null);
          form.resetField('loginPw');
          setProblem(code ? { kind: 'code', code } : null);
        }}
      />
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title" data-testid="login-form">
      <Stack>
        <Title order={1} size="h2" id="login-title">
          {t('auth.loginTitle')}
        </Title>
        {problem && <LoginProblemAlert problem={problem} />}
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          data-testid="login-email"
          error={messageText(errors.loginId)}
          {...form.field('loginId')}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          data-testid="login-password"
          error={messageText(errors.loginPw)}
          {...form.field('loginPw')}
        />
        <Button type="submit" loading={loginMutation.isPending} data-testid="login-submit">
          {t('auth.submit')}
        </Button>
        <Anchor component={Link} to={paths.auth.register.getHref()} size="sm">
          {t('auth.register')}
        </Anchor>
      </Stack>
    </form>
  );
}
