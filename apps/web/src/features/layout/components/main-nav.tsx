import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { navGroupsFor } from '../nav-items';

/** First path segment decides which item is active ("/robot/control" vs "/robot/list" differ by two). */
const isActive = (pathname: string, href: string) => {
  const base = href.split('?')[0] ?? href;
  const depth = base.startsWith('/robot') || base.startsWith('/system/') ? 2 : 1;
  const prefix = base
    .split('/')
    .slice(0, depth + 1)
    .join('/');
  return pathname === base || pathname.startsWith(`${prefix}/`) || pathname === prefix;
};

export function MainNav({ type, onNavigate }: { type: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <ScrollArea component="nav" aria-label={t('nav.label')} type="scroll">
      <Stack gap="md">
        {navGroupsFor(type).map((group) => (
          <div key={group.key} data-testid={`nav-group-${group.key}`}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {t(`nav.${group.key}`)}
            </Text>
            {group.items.map((item) => (
              <NavLink
                key={item.key}
                component={Link}
                to={item.href}
                label={item.key === 'auditLog' ? t('people.audit.nav') : t(`nav.${item.key}`)}
                active={isActive(pathname, item.href)}
                onClick={onNavigate}
                data-testid={`nav-${item.key}`}
              />
            ))}
          </div>
        ))}
      </Stack>
    </ScrollArea>
  );
}
