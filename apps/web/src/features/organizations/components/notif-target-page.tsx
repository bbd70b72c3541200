import { Anchor, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { showNotification } from '@/lib/notify';
import { useDeleteNotifTarget } from '../api/delete-notif-target';
import { useNotifTarget } from '../api/get-notif-target';
import { ConfirmButton } from '@/components/confirm-button';
import { DeleteError } from './delete-error';
import { NotifTargetForm } from './notif-target-form';
import { TestNotifButton } from './test-notif-button';
import { PageHeader } from '@/components/page-header';

function BackLink({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.organization.detail.getHref(organizationId)} size="sm">
      ← {t('people.notif.backToOrganization')}
    </Anchor>
  );
}

export function NotifTargetCreatePage({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <BackLink organizationId={organizationId} />
      <Title order={1} size="h2">
        {t('people.notif.createTitle')}
      </Title>
      <NotifTargetForm organizationId={organizationId} />
    </Stack>
  );
}

export function NotifTargetEditPage({ organizationId, id }: { organizationId: number; id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const target = useNotifTarget(organizationId, id);
  const remove = useDeleteNotifTarget();
  if (target.isPending) return <PageLoader />;
  if (target.isError) return <QueryError error={target.error} onRetry={() => void target.refetch()} />;
  const n = target.data;
  return (
    <Stack>
      <BackLink organizationId={organizationId} />
      <PageHeader title={t('people.notif.editTitle')}>
        <Group>
          <TestNotifButton organizationId={organizationId} target={n} />
          <ConfirmButton
            label={t('people.delete')}
            message={t('people.notif.deleteConfirm')}
            loading={remove.isPending}
            testId="notif-delete"
            onConfirm={() =>
              remove.mutate(
                { organizationId, id },
                {
                  onSuccess: () => {
                    showNotification({ color: 'green', message: t('people.deleted') });
                    void navigate(paths.organization.detail.getHref(organizationId));
                  },
                },
              )
            }
          />
        </Group>
      </PageHeader>
      {remove.isError && <DeleteError error={remove.error} />}
      <NotifTargetForm
        organizationId={organizationId}
        target={n}
        onReload={async () => (await target.refetch()).data}
      />
    </Stack>
  );
}
