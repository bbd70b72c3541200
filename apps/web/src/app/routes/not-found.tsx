import '@/styles/full';
import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="md" component="main">
      <Paper withBorder p="xl" maw={480} data-testid="not-found">
        <Stack>
          <Title order={1} size="h2">
            {t('notFound.title')}
          </Title>
          <Text>{t('notFound.body')}</Text>
          <Button component={Link} to={paths.robot.control.getHref()}>
            {t('notFound.home')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
