import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListPager, ListStates } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useErrorText } from '@/lib/i18n';
import { MESSAGES_PER_PAGE, useMessages } from '../api/get-messages';
import { useMarkMessageRead } from '../api/mark-message-read';
import { LevelBadge } from './level-badge';

export function MessagesList({ page }: { page: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText();
  const messages = useMessages(page);
  const markRead = useMarkMessageRead();

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('my.messages.title')}
      </Title>
      {markRead.isError && (
        <Alert color="red" role="alert">
          {errorText(markRead.error)}
        </Alert>
      )}
      <ListStates query={messages} empty={t('common.empty')}>
        {(data) => (
          <>
            {data.items.map((m) => (
              <Paper key={m.id} withBorder p="md" component="article" data-testid={`message-${m.id}`}>
                <Group justify="space-between" mb="xs">
                  <Group gap="xs">
                    <LevelBadge level={m.level} />
                    {m.readAt === null && <Badge color="grape">{t('my.messages.unread')}</Badge>}
                    <Text fw={600}>{m.title}</Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {format.dateTime(m.createdAt)}
                  </Text>
                </Group>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{m.body}</Text>
                {m.readAt === null && (
                  <Button mt="sm" size="xs" variant="light" onClick={() => markRead.mutate(m.id)}>
                    {t('my.messages.markRead')}
                  </Button>
                )}
              </Paper>
            ))}
            <ListPager
              page={page}
              total={data.total}
              perPage={MESSAGES_PER_PAGE}
              pageHref={paths.my.messages.getHref}
            />
          </>
        )}
      </ListStates>
    </Stack>
  );
}
