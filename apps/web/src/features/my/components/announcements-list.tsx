import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListStates } from '@/components/list-page';
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
      <ListStates query={announcements} empty={t('common.empty')}>
        {(items) =>
          items.map((a) => (
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
        }
      </ListStates>
    </Stack>
  );
}
