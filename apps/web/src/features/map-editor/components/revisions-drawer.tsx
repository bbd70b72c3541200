import { Badge, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { useFormat } from '@/lib/format';
import { useMapRevisions } from '../api/get-map-revisions';

interface RevisionsDrawerProps {
  floorId: number;
  /** The building's zone. */
  timeZone?: string;
  opened: boolean;
  current: number;
  canRestore: boolean;
  restoring: boolean;
  onClose: () => void;
  onPreview: (revision: number) => void;
  onRestore: (revision: number) => void;
}

/** The map's saved revisions: preview one read-only, or restore it as the newest. */
export function RevisionsDrawer(props: RevisionsDrawerProps) {
  const { floorId, timeZone, opened, current, canRestore, restoring, onClose, onPreview, onRestore } = props;
  const { t } = useTranslation();
  const f = useFormat();
  const list = useMapRevisions(floorId, opened);
  const [confirm, setConfirm] = useState<number | null>(null);
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t('mapEditor.revisionList.title')}>
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('mapEditor.revisionList.empty')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="revision-list">
          {list.data.map((r) => (
            <Stack
              key={r.revision}
              gap={2}
              p="xs"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
            >
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {t('mapEditor.revisionList.entry', { revision: r.revision })}
                </Text>
                {r.revision === current && (
                  <Badge size="xs" variant="light">
                    {t('mapEditor.revisionList.current')}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {t('mapEditor.revisionList.by', { at: f.dateTime(r.savedAt, { timeZone }), by: r.savedBy ?? '—' })}
              </Text>
              <Text size="xs">{t('mapEditor.revisionList.counts', { waypoints: r.waypoints, edges: r.edges })}</Text>
              {r.note && (
                <Text size="xs" c="dimmed">
                  {r.note}
                </Text>
              )}
              <Group gap="xs" mt={4}>
                <Button size="compact-xs" variant="default" onClick={() => onPreview(r.revision)}>
                  {t('mapEditor.revisionList.preview')}
                </Button>
                {canRestore && r.revision !== current && (
                  <Button size="compact-xs" variant="light" color="orange" onClick={() => setConfirm(r.revision)}>
                    {t('mapEditor.revisionList.restore')}
                  </Button>
                )}
              </Group>
            </Stack>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={confirm !== null}
        title={t('mapEditor.revisionList.confirmTitle', { revision: confirm ?? 0 })}
        confirmLabel={t('mapEditor.revisionList.restore')}
        color="orange"
        loading={restoring}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm !== null) onRestore(confirm);
          setConfirm(null);
        }}
      >
        {t('mapEditor.revisionList.confirmBody')}
      </ConfirmDialog>
    </Drawer>
  );
}
