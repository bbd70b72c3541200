import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches } from 'react-router';
import type { Section } from '@/config/paths';
import { paths } from '@/config/paths';

export interface SectionHandle {
  section: Section;
}
const isSectionHandle = (h: unknown): h is SectionHandle =>
  typeof h === 'object' && h !== null && 'section' in h && typeof h.section === 'string';

/** One honest page for every screen of spec section 2 that a later issue builds. No fake data. */
export function Component() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const handle = useMatches()
    .map((m) => m.handle)
    .filter(isSectionHandle)
    .at(-1);
  const section = handle ? t(`sections.${handle.section}`) : pathname;
  return (
    <Paper withBorder p="xl" data-testid="coming-soon">
      <Stack align="flex-start">
        <Title order={1} size="h2">
          {t('comingSoon.title', { section })}
        </Title>
        <Text>{t('comingSoon.body', { path: pathname })}</Text>
        <Button component={Link} to={paths.robot.control.getHref()} variant="light">
          {t('comingSoon.back')}
        </Button>
      </Stack>
    </Paper>
  );
}
