import { Alert, Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { contractHelpHref } from '@/config/links';
import type { LoginProblem } from '../login-error';

export function LoginProblemAlert({ problem }: { problem: LoginProblem }) {
  const { t } = useTranslation();
  const text =
    problem.kind === 'failed'
      ? t('auth.failed')
      : problem.kind === 'network'
        ? t('common.networkError')
        : t(`errors.${problem.code}`);
  return (
    <Alert color="red" role="alert" data-testid="login-error">
      {text}
      {problem.kind === 'contract' && (
        <>
          {' '}
          <Anchor component={Link} to={contractHelpHref(problem.code)} data-testid="login-help-link">
            {t('auth.helpLink')}
          </Anchor>
        </>
      )}
    </Alert>
  );
}
