import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUPPORT_URL } from '@/config/links';
import { paths } from '@/config/paths';

const knownCodes = ['CONTRACT_ENDED', 'PAYMENT_INCOMPLETE', 'IP_NOT_ALLOWED'] as const;
type KnownCode = (typeof knownCodes)[number];
const isKnown = (code: string | null): code is KnownCode => knownCodes.some((k) => k === code);

/** /auth/error?code=…: what the error means and what the operator can do. */
export function AuthErrorInfo({ code }: { code: string | null }) {
  const { t } = useTranslation();
  const known = isKnown(code) ? code : null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('authError.title')}
      </Title>
      {known && (
        <Alert color="red" role="alert" data-testid="auth-error-code">
          {t(`errors.${known}`)}
        </Alert>
      )}
      <Text>{known ? t(`authError.${known}`) : t('authError.generic')}</Text>
      <Anchor href={SUPPORT_URL}>{t('authError.contactSupport')}</Anchor>
      <Button component={Link} to={paths.auth.login.getHref()} variant="light">
        {t('common.backToLogin')}
      </Button>
    </Stack>
  );
}
