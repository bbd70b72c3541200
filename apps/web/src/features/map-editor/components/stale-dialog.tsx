import { Button, Modal, Stack, Text } from '@mantine/core';
import type { FloorMap } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';

interface StaleDialogProps {
  theirs: FloorMap | null;
  busy: boolean;
  onOverwrite: () => void;
  onReload: () => void;
  onClose: () => void;
  /** The building's zone. */
  timeZone?: string;
}

/** 409 STALE_UPDATE: someone saved a newer revision; overwrite it, or load theirs keeping ours as a draft. */
export function StaleDialog({ theirs, busy, onOverwrite, onReload, onClose, timeZone }: StaleDialogProps) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Modal opened={theirs !== null} onClose={onClose} title={t('mapEditor.stale.title')} centered>
      {theirs && (
        <Stack>
          <Text size="sm" data-testid="stale-body">
            {t('mapEditor.stale.body', {
              revision: theirs.revision,
              by: theirs.savedBy ?? t('mapEditor.stale.unknownUser'),
              at: theirs.savedAt ? f.dateTime(theirs.savedAt, { timeZone }) : '—',
            })}
          </Text>
          <Button color="red" onClick={onOverwrite} loading={busy} data-testid="stale-overwrite">
            {t('mapEditor.stale.overwrite')}
          </Button>
          <Button variant="default" onClick={onReload} disabled={busy} data-testid="stale-reload">
            {t('mapEditor.stale.reload')}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}
