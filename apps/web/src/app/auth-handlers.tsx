import { Anchor } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import type { createBrowserRouter } from 'react-router';
import { contractHelpHref } from '@/config/links';
import { paths } from '@/config/paths';
import { setAuthFailureHandlers, type ApiError } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import { sessionStore } from '@/lib/session';
import { showNotification } from '@/lib/notify';

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'navigate' | 'state'>;

/**
 * Spec section 8: a 401/403 (outside the login calls) ends the session and goes to login keeping the
 * current location as redirect target; 498/499 do the same with the contract message and a help link.
 */
export function registerAuthHandlers(router: AppRouter, queryClient: QueryClient): () => void {
  const toLogin = () => {
    const { pathname, search } = router.state.location;
    const onAuthPage = pathname.startsWith(paths.auth.root.path);
    sessionStore.clear();
    queryClient.clear();
    if (!onAuthPage) void router.navigate(paths.auth.login.getHref(pathname + search), { replace: true });
  };

  setAuthFailureHandlers({
    onUnauthenticated: () => {
      const hadSession = sessionStore.get() !== null;
      toLogin();
      if (hadSession)
        showNotification({ id: 'session-ended', color: 'orange', message: i18n.t('errors.UNAUTHENTICATED') });
    },
    onPasswordChangeRequired: () => {
      if (router.state.location.pathname === paths.my.chpwd.path) return;
      showNotification({
        id: 'password-change',
        color: 'orange',
        message: i18n.t('errors.PASSWORD_CHANGE_REQUIRED'),
      });
      void router.navigate(paths.my.chpwd.getHref());
    },
    onContractBlocked: (error: ApiError) => {
      const code = error.status === 498 ? 'PAYMENT_INCOMPLETE' : 'CONTRACT_ENDED';
      toLogin();
      showNotification({
        id: 'contract-blocked',
        color: 'red',
        autoClose: false,
        message: (
          <>
            {i18n.t(`errors.${code}`)}{' '}
            <Anchor href={contractHelpHref(code)} size="sm">
              {i18n.t('auth.helpLink')}
            </Anchor>
          </>
        ),
      });
    },
  });
  return () => setAuthFailureHandlers(null);
}
