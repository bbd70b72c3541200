import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { showNotification } from '@/lib/notify';
import { useDeleteOrganization } from '../api/delete-organization';
import { useOrganization } from '../api/get-organization';
import { ConfirmButton } from '@/components/confirm-button';
import { DeleteError } from './delete-error';
import { NotifTargetList } from './notif-target-list';
import { OrganizationForm } from './organization-form';
import { PageHeader } from '@/components/page-header';

interface OrganizationPageProps {
  id: number;
  systemAdmin: boolean;
}

/** One organization: its form, deletion (system administrators) and its notification targets. */
export function OrganizationPage({ id, systemAdmin }: OrganizationPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const organization = useOrganization(id);
  const remove = useDeleteOrganization();

  if (organization.isPending) return <PageLoader />;
  if (organization.isError)
    return <QueryError error={organization.error} onRetry={() => void organization.refetch()} />;
  const org = organization.data;

  return (
    <Stack>
      <Anchor component={Link} to={paths.organization.list.getHref()} size="sm">
        ← {t('people.back')}
      </Anchor>
      <PageHeader title={t('people.org.editTitle', { name: org.name })}>
        {systemAdmin && (
          <ConfirmButton
            label={t('people.delete')}
            message={t('people.org.deleteConfirm', { name: org.name })}
            loading={remove.isPending}
            testId="organization-delete"
            onConfirm={() =>
              remove.mutate(org.id, {
                onSuccess: () => {
                  showNotification({ color: 'green', message: t('people.deleted') });
                  void navigate(paths.organization.list.getHref());
                },
              })
            }
          />
        )}
      </PageHeader>
      {remove.isError && <DeleteError error={remove.error} />}
      <OrganizationForm
        organization={org}
        systemAdmin={systemAdmin}
        onReload={async () => (await organization.refetch()).data}
      />
      <NotifTargetList organizationId={org.id} />
    </Stack>
  );
}
