import { ActionIcon, Alert, Box, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReportPhoto } from '@portal/contract';
import { useEffect, useState } from 'react';
import { useErrorText } from '@/lib/i18n';
import { downloadUrl } from '../download';
import { useReportWords } from '../words';

export interface ViewerPhoto {
  photo: ReportPhoto;
  /** "10:32:05 · Take photo": when and by which step. */
  caption: string;
}

const ZOOMS = [1, 1.5, 2, 3, 4] as const;

/**
 * The report's photos one at a time, full size: zoom in and out (the picture scrolls when larger than
 * the window), previous and next with the buttons or the arrow keys, download under its file name.
 */
export function PhotoViewer({
  photos,
  index,
  onIndex,
  onClose,
}: {
  photos: ViewerPhoto[];
  /** The photo shown, or null when closed. */
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useReportWords();
  const errorText = useErrorText();
  const [zoom, setZoom] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const current = index === null ? undefined : photos[index];
  const count = photos.length;
  const go = (delta: number) => {
    if (index === null || count === 0) return;
    setZoom(0);
    setError(null);
    onIndex((index + delta + count) % count);
  };

  useEffect(() => {
    if (index === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') go(1);
      else if (e.key === 'ArrowLeft') go(-1);
      else if (e.key === '+' || e.key === '=') setZoom((z) => Math.min(z + 1, ZOOMS.length - 1));
      else if (e.key === '-') setZoom((z) => Math.max(z - 1, 0));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const scale = ZOOMS[zoom] ?? 1;
  return (
    <Modal
      opened={current !== undefined}
      onClose={() => {
        setZoom(0);
        onClose();
      }}
      title={index === null ? '' : t('reports.viewer.title', { n: index + 1, total: count })}
      size="90%"
      centered
      closeButtonProps={{ 'aria-label': t('reports.viewer.close') }}
      data-testid="photo-viewer"
    >
      {current && (
        <Stack gap="xs">
          <Box
            style={{
              overflow: 'auto',
              maxHeight: '70vh',
              background: 'var(--mantine-color-dark-7)',
              textAlign: 'center',
            }}
            data-testid="photo-viewer-frame"
          >
            <img
              src={current.photo.url}
              alt={current.caption}
              data-testid="photo-viewer-image"
              data-zoom={scale}
              style={{
                width: scale === 1 ? 'auto' : `${scale * 100}%`,
                maxWidth: scale === 1 ? '100%' : 'none',
                maxHeight: scale === 1 ? '70vh' : 'none',
                display: 'inline-block',
              }}
            />
          </Box>
          <Text size="sm" data-testid="photo-viewer-caption">
            {current.caption}
            {current.photo.camera ? ` · ${current.photo.camera}` : ''} · {current.photo.width}×{current.photo.height}
          </Text>
          {error !== null && (
            <Alert color="red" role="alert">
              {t('reports.downloadFailed', { error: errorText(error) })}
            </Alert>
          )}
          <Group justify="space-between">
            <Group gap="xs">
              <Button variant="default" onClick={() => go(-1)} disabled={count < 2} data-testid="photo-previous">
                ← {t('reports.viewer.previous')}
              </Button>
              <Button variant="default" onClick={() => go(1)} disabled={count < 2} data-testid="photo-next">
                {t('reports.viewer.next')} →
              </Button>
            </Group>
            <Group gap="xs">
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setZoom((z) => Math.max(z - 1, 0))}
                disabled={zoom === 0}
                aria-label={t('reports.viewer.zoomOut')}
                data-testid="photo-zoom-out"
              >
                −
              </ActionIcon>
              <Text size="sm" w={48} ta="center" aria-live="polite">
                {Math.round(scale * 100)}%
              </Text>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setZoom((z) => Math.min(z + 1, ZOOMS.length - 1))}
                disabled={zoom === ZOOMS.length - 1}
                aria-label={t('reports.viewer.zoomIn')}
                data-testid="photo-zoom-in"
              >
                +
              </ActionIcon>
              <Button variant="subtle" onClick={() => setZoom(0)} disabled={zoom === 0}>
                {t('reports.viewer.zoomReset')}
              </Button>
              <Button
                onClick={() => {
                  setError(null);
                  downloadUrl(current.photo.url, current.photo.fileName).catch(setError);
                }}
                data-testid="photo-download"
              >
                {t('reports.viewer.download')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
