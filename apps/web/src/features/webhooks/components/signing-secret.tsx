import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The signing secret in full, right after it was made (creation or renewal): shown this once. */
export function SigningSecretAlert({ secret }: { secret: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('webhooks.secret.title')} data-testid="webhook-signing-secret">
      <Stack gap="xs">
        <Text size="sm">{t('webhooks.secret.once')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }}>{secret}</Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
