import { Anchor, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { OrganizationForm } from './organization-form';

export function OrganizationCreatePage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Anchor component={Link} to={paths.organization.list.getHref()} size="sm">
        ← {t('people.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('people.org.createTitle')}
      </Title>
      <OrganizationForm systemAdmin />
    </Stack>
  );
}
