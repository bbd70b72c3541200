import { Box, Center, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch';
import { ThemeToggle } from '@/components/theme-toggle';

export function Component() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" p="md">
      <Group justify="space-between" mb="xl" component="header">
        <Text fw={700}>{t('app.name')}</Text>
        <Group gap="xs">
          <LanguageSwitch />
          <ThemeToggle />
        </Group>
      </Group>
      <Center component="main">
        <Stack w="100%" align="center">
          <Outlet />
        </Stack>
      </Center>
    </Box>
  );
}
