import { Alert, Button, CopyButton, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { RobotCredentials } from '@portal/contract';
import { useTranslation } from 'react-i18next';

const rows = ['mqttUrl', 'username', 'password', 'manufacturer', 'serialNumber', 'interfaceName'] as const;

interface CredentialsModalProps {
  credentials: RobotCredentials | null;
  onDone: () => void;
}

/** The broker credentials, shown once after registration or rotation (the server never answers them again). */
export function CredentialsModal({ credentials, onDone }: CredentialsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={credentials !== null}
      onClose={onDone}
      title={t('robotRegistry.credentials.title')}
      size="lg"
      centered
      closeOnClickOutside={false}
      data-testid="credentials-modal"
    >
      {credentials && (
        <Stack>
          <Alert color="orange" role="alert" data-testid="credentials-warning">
            {t('robotRegistry.credentials.warning')}
          </Alert>
          <Table verticalSpacing="xs" data-testid="credentials-table">
            <Table.Tbody>
              {rows.map((k) => (
                <Table.Tr key={k}>
                  <Table.Th w={170}>{t(`robotRegistry.credentials.${k}`)}</Table.Th>
                  <Table.Td>
                    <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} data-testid={`credential-${k}`}>
                      {credentials[k]}
                    </Text>
                  </Table.Td>
                  <Table.Td w={110}>
                    <CopyButton value={credentials[k]}>
                      {({ copied, copy }) => (
                        <Button
                          size="xs"
                          variant={copied ? 'filled' : 'light'}
                          color={copied ? 'teal' : undefined}
                          onClick={copy}
                          aria-label={`${t('robotRegistry.credentials.copy')}: ${t(`robotRegistry.credentials.${k}`)}`}
                        >
                          {copied ? t('robotRegistry.credentials.copied') : t('robotRegistry.credentials.copy')}
                        </Button>
                      )}
                    </CopyButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="flex-end">
            <Button onClick={onDone} data-testid="credentials-done">
              {t('robotRegistry.credentials.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
