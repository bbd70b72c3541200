import { Anchor, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { StoredSession } from '@/lib/session';
import { BuildingForm } from './building-form';

export function BuildingCreate({ session }: { session: StoredSession }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Anchor component={Link} to={paths.building.list.getHref()} size="sm">
        ← {t('buildings.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('buildings.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <BuildingForm sessionType={session.type} organizationId={session.organizationId} />
      </Paper>
    </Stack>
  );
}
