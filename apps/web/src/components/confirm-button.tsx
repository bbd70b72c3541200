import { Button, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './confirm-dialog';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children'> {
  label: string;
  message: ReactNode;
  onConfirm: () => void;
  testId?: string;
}

/** A button that asks first, in a modal; the confirm button is `${testId}-confirm`. */
export function ConfirmButton({ label, message, onConfirm, testId, color = 'red', ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button color={color} variant="light" onClick={open} data-testid={testId} {...button}>
        {label}
      </Button>
      <ConfirmDialog
        opened={opened}
        title={t('people.confirmTitle')}
        confirmLabel={label}
        color={color}
        confirmTestId={testId ? `${testId}-confirm` : undefined}
        onClose={close}
        onConfirm={() => {
          close();
          onConfirm();
        }}
      >
        <Text size="sm">{message}</Text>
      </ConfirmDialog>
    </>
  );
}
