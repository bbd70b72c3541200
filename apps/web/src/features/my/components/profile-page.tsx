import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useProfile } from '../api/get-profile';
import { EmailChangePanel } from './email-change-panel';
import { ProfileForm } from './profile-form';

export function ProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        {t('my.profile.title')}
      </Title>
      {profile.isPending ? (
        <PageLoader />
      ) : profile.isError ? (
        <QueryError error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <>
          {profile.data.pendingEmail && <EmailChangePanel pending={profile.data.pendingEmail} />}
          <ProfileForm profile={profile.data} onReload={async () => (await profile.refetch()).data} />
        </>
      )}
    </Stack>
  );
}
