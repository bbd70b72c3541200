import { Anchor, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { showNotification } from '@/lib/notify';
import type { StoredSession } from '@/lib/session';
import { useCreateBuilding } from '../api/create-building';
import { BuildingForm } from './building-form';

export function BuildingCreate({ session }: { session: StoredSession }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateBuilding();
  return (
    <Stack>
      <Anchor component={Link} to={paths.building.list.getHref()} size="sm">
        ← {t('buildings.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('buildings.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <BuildingForm
          sessionType={session.type}
          saving={create.isPending}
          error={create.error}
          defaultValues={{
            name: '',
            prefecture: '',
            city: '',
            address: '',
            postalCode: '',
            latitude: null,
            longitude: null,
            organizationId: session.organizationId,
            status: 1,
          }}
          onSubmit={async ({ updatedAt: _ignored, ...body }) => {
            const b = await create.mutateAsync(body);
            showNotification({ color: 'green', message: t('buildings.form.created') });
            void navigate(paths.building.detail.getHref(b.id));
          }}
        />
      </Paper>
    </Stack>
  );
}
