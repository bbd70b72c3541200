import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** The question; a string becomes a paragraph, anything else is shown as given. */
  children: ReactNode;
  confirmLabel: string;
  /** The other button's text (`Cancel` unless the caller names it). */
  cancelLabel?: string;
  color?: string;
  loading?: boolean;
  /** The confirm button's test id (`confirm-button` unless the caller names it). */
  confirmTestId?: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no question before a change that cannot be undone (focus moves into it; Escape cancels). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel,
  color = 'red',
  loading,
  confirmTestId = 'confirm-button',
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading} data-testid={confirmTestId}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
