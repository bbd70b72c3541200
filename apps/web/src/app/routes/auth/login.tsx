import { Alert, Paper, Stack } from '@mantine/core';
import { LOGIN_REDIRECT_DELAY_MS, type Session } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form';
import { applyLanguage, i18n } from '@/lib/i18n';
import { safeRedirect } from '@/lib/safe-redirect';
import { sessionStore } from '@/lib/session';
import { showNotification } from '@/lib/notify';

export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const location = useLocation();
  const { t } = useTranslation();
  const state = location.state as { signedOut?: boolean; reason?: string } | null;
  const signedOut = state?.signedOut === true;
  const adminOnly = state?.reason === 'adminOnly';
  useEffect(() => {
    if (!signedOut) return;
    sessionStore.clear();
    queryClient.clear();
  }, [signedOut, queryClient]);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onSignedIn = async (session: Session) => {
    queryClient.clear();
    sessionStore.save(session);
    // The account's language wins over the browser's (product-behaviour.md); its texts may need loading.
    if (session.language) await applyLanguage(session.language);
    showNotification({ id: 'logged-in', color: 'green', message: i18n.t('auth.loggedIn') });
    const target = safeRedirect(params.get('redirect'));
    timer.current = window.setTimeout(() => void navigate(target, { replace: true }), LOGIN_REDIRECT_DELAY_MS);
  };

  return (
    <Stack w="100%" maw={440} gap="sm">
      {adminOnly && (
        <Alert color="yellow" data-testid="login-admin-only">
          {t('auth.adminOnly')}
        </Alert>
      )}
      <Paper withBorder shadow="sm" p="xl" w="100%">
        <LoginForm onSignedIn={onSignedIn} />
      </Paper>
    </Stack>
  );
}
