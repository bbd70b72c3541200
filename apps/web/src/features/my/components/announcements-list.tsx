import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFormat } from '@/lib/format';
import { useAnnouncements } from '../api/get-announcements';
import { LevelBadge } from './level-badge';

export function AnnouncementsList() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const announcements = useAnnouncements(i18n.language);
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('my.announcements.title')}
      </Title>
      {announcements.isPending ? (
        <PageLoader />
      ) : announcements.isError ? (
        <QueryError error={announcements.error} onRetry={() => void announcements.refetch()} />
      ) : announcements.data.length === 0 ? (
        <Text c="dimmed">{t('common.empty')}</Text>
      ) : (
        announcements.data.map((a) => (
          <Paper key={a.id} withBorder p="md" component="article">
            <Group justify="space-between" mb="xs">
              <Group gap="xs">
                <LevelBadge level={a.level} />
                <Text fw={600}>{a.title}</Text>
              </Group>
              <Text size="sm" c="dimmed">
                {format.dateTime(a.publishedAt)}
              </Text>
            </Group>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{a.body}</Text>
          </Paper>
        ))
      )}
    </Stack>
  );
}
