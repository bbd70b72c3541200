import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children'> {
  label: string;
  message: ReactNode;
  onConfirm: () => void;
  testId?: string;
}

/** A button that asks first, in a modal (focus moves into it; Escape cancels). */
export function ConfirmButton({ label, message, onConfirm, testId, color = 'red', ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button color={color} variant="light" onClick={open} data-testid={testId} {...button}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={t('people.confirmTitle')} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              color={color}
              onClick={() => {
                close();
                onConfirm();
              }}
              data-testid={testId ? `${testId}-confirm` : undefined}
            >
              {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
