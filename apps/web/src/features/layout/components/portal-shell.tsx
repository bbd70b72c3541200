import { Anchor, AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { MainNav } from './main-nav';
import { RealtimeIndicator } from './realtime-indicator';

/**
 * Below this width (Mantine `md`, 62em = 992 px: tablets in portrait and landscape up to 991 px) the
 * menu is a drawer opened by the burger, so the screen keeps its full width.
 */
export const NAV_BREAKPOINT = 'md';

interface PortalShellProps {
  type: number;
  /** Notices at the top of every screen (the contract banner). */
  banner?: ReactNode;
  /** Right side of the header: location, language, theme, user menu (composed by the app layer). */
  headerActions: ReactNode;
  children: ReactNode;
}

export function PortalShell({ type, banner, headerActions, children }: PortalShellProps) {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <>
      <Anchor
        href="#main"
        className="skip-link"
        style={{ position: 'absolute', left: -10000, top: 0 }}
        onFocus={(e) => (e.currentTarget.style.left = '8px')}
        onBlur={(e) => (e.currentTarget.style.left = '-10000px')}
      >
        {t('app.skipToContent')}
      </Anchor>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 230, breakpoint: NAV_BREAKPOINT, collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom={NAV_BREAKPOINT}
                size="sm"
                aria-label={t('nav.toggle')}
              />
              <Anchor component={Link} to={paths.robot.control.getHref()} underline="never" c="inherit">
                <Text fw={700} visibleFrom="xs">
                  {t('app.name')}
                </Text>
              </Anchor>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <RealtimeIndicator />
              {headerActions}
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <MainNav type={type} onNavigate={close} />
        </AppShell.Navbar>
        <AppShell.Main id="main" tabIndex={-1}>
          {banner}
          {children}
        </AppShell.Main>
      </AppShell>
    </>
  );
}
