import { Box, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
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

/** True while part of the menu lies below the visible area (so the hint "more below" is shown). */
function useMoreBelow() {
  const viewport = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const check = useCallback(() => {
    const el = viewport.current;
    if (el) setMore(el.scrollHeight - el.scrollTop - el.clientHeight > 4);
  }, []);
  useEffect(() => {
    check();
    const el = viewport.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [check]);
  return { viewport, more, check };
}

export function MainNav({ type, onNavigate }: { type: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { viewport, more, check } = useMoreBelow();
  const groups = navGroupsFor(type);
  const scrollDown = () => viewport.current?.scrollBy({ top: viewport.current.clientHeight / 2, behavior: 'smooth' });
  return (
    <Box pos="relative" h="100%">
      <ScrollArea
        component="nav"
        aria-label={t('nav.label')}
        type="scroll"
        h="100%"
        viewportRef={viewport}
        onScrollPositionChange={check}
      >
        <Stack gap="md">
          {groups.map((group) => (
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
      {more && (
        <Text
          component="button"
          type="button"
          onClick={scrollDown}
          size="xs"
          c="blue"
          fw={600}
          ta="center"
          pos="absolute"
          bottom={0}
          left={0}
          right={0}
          py={4}
          bg="var(--mantine-color-body)"
          style={{ border: 0, borderTop: '1px solid var(--mantine-color-default-border)', cursor: 'pointer' }}
          data-testid="nav-more-below"
        >
          {t('nav.moreBelow', { section: t(`nav.${groups.at(-1)?.key ?? 'operations'}`) })}
        </Text>
      )}
    </Box>
  );
}
