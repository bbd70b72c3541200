import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { niceStep } from '../model/camera';
import type { EditorStore } from '../model/store';
import { useStoreChannel } from './use-store';

const fmt = (v: number) => v.toFixed(2);

/** Cursor position in metres (updates on its own channel, so moving the mouse renders only this). */
function Coordinates({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  useStoreChannel(store, 'pointer');
  const p = store.pointer;
  return (
    <Text size="xs" ff="monospace" data-testid="cursor-coordinates" miw={170}>
      {p ? t('mapEditor.status.coordinates', { x: fmt(p.x), y: fmt(p.y) }) : t('mapEditor.status.noPointer')}
    </Text>
  );
}

function Zoom({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  useStoreChannel(store, 'camera');
  const z = store.camera.zoom;
  return (
    <Text size="xs" ff="monospace">
      {t('mapEditor.status.zoom', { zoom: z >= 10 ? Math.round(z) : z.toFixed(1) })}
    </Text>
  );
}

/** A bar of a round length in metres, over the map's bottom-left corner. */
export function ScaleBar({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  useStoreChannel(store, 'camera');
  const meters = niceStep(store.camera.zoom, 60);
  const px = meters * store.camera.zoom;
  return (
    <div
      data-testid="scale-bar"
      style={{
        position: 'absolute',
        left: 12,
        bottom: 12,
        pointerEvents: 'none',
        background: 'var(--mantine-color-body)',
        opacity: 0.85,
        padding: '2px 6px',
        borderRadius: 4,
      }}
    >
      <Text size="xs" ta="center">
        {t('mapEditor.scale', { meters })}
      </Text>
      <div style={{ width: px, height: 6, border: '2px solid var(--mantine-color-text)', borderTop: 'none' }} />
    </div>
  );
}

interface StatusBarProps {
  store: EditorStore;
  revision: number;
}

/** Coordinates, zoom, revision and whether there are unsaved changes. */
export function StatusBar({ store, revision }: StatusBarProps) {
  const { t } = useTranslation();
  useStoreChannel(store, 'model');
  return (
    <Group gap="lg" px="xs" py={4} data-testid="editor-status" wrap="wrap">
      <Coordinates store={store} />
      <Zoom store={store} />
      <Text size="xs" data-testid="status-revision">
        {revision > 0 ? t('mapEditor.status.revision', { revision }) : t('mapEditor.status.neverSaved')}
      </Text>
      {!store.readOnly && (
        <Text size="xs" c={store.dirty ? 'orange' : 'dimmed'} fw={store.dirty ? 600 : undefined} data-testid="unsaved">
          {store.dirty ? `● ${t('mapEditor.status.unsaved')}` : t('mapEditor.status.allSaved')}
        </Text>
      )}
      <Text size="xs" c="dimmed" ml="auto">
        {store.options.edgeMode === 'delete' && store.toolId === 'edge'
          ? t('mapEditor.toolHints.edgeDelete')
          : t(`mapEditor.toolHints.${store.toolId}`)}
      </Text>
    </Group>
  );
}
