import { Alert, Stack, Text, UnstyledButton } from '@mantine/core';
import type { MapImage } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useMapWarnings } from '../canvas/warning-source';
import type { MapWarning } from '../model/occupancy';
import type { EditorStore } from '../model/store';
import { useStoreChannel } from './use-store';

const LIMIT = 30;

/**
 * Warnings of the map against its image (issue 12 item 10): waypoints on an obstacle, edges through
 * one. They never block a save; a click selects the item and centres it.
 */
export function MapWarnings({ store, image }: { store: EditorStore; image: MapImage | null }) {
  const { t } = useTranslation();
  useStoreChannel(store, 'model');
  const warnings = useMapWarnings(store, image);
  if (warnings.length === 0) return null;
  const doc = store.doc;
  const name = (id: number) => doc.waypoints.find((w) => w.id === id)?.name ?? `#${id}`;
  const text = (w: MapWarning) => {
    if (w.kind === 'waypointOnObstacle')
      return t('mapEditor.warnings.waypointOnObstacle', { name: name(w.waypointId) });
    const e = doc.edges.find((x) => x.id === w.edgeId);
    return t('mapEditor.warnings.edgeCrossesObstacle', {
      from: e ? name(e.from) : '?',
      to: e ? name(e.to) : '?',
    });
  };
  const pick = (w: MapWarning) => {
    store.select([
      w.kind === 'waypointOnObstacle' ? { kind: 'waypoint', id: w.waypointId } : { kind: 'edge', id: w.edgeId },
    ]);
    store.centerOn(w.at, store.camera.zoom);
  };
  return (
    <Alert
      color="orange"
      variant="light"
      p="xs"
      mx="xs"
      mt="xs"
      title={t('mapEditor.warnings.title', { count: warnings.length })}
      data-testid="map-warnings"
    >
      <Text size="xs" c="dimmed" mb={4}>
        {t('mapEditor.warnings.hint')}
      </Text>
      <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {warnings.slice(0, LIMIT).map((w) => (
          <li key={w.kind === 'waypointOnObstacle' ? `w${w.waypointId}` : `e${w.edgeId}`}>
            <UnstyledButton
              onClick={() => pick(w)}
              fz="xs"
              data-testid={
                w.kind === 'waypointOnObstacle' ? `warning-waypoint-${w.waypointId}` : `warning-edge-${w.edgeId}`
              }
            >
              {text(w)}
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      {warnings.length > LIMIT && (
        <Text size="xs" c="dimmed">
          {t('mapEditor.panel.more', { count: warnings.length - LIMIT })}
        </Text>
      )}
    </Alert>
  );
}

/** The ids of waypoints and edges with a warning (the lists and the canvas mark them). */
export function warnedIds(warnings: readonly MapWarning[]): { waypoints: Set<number>; edges: Set<number> } {
  const waypoints = new Set<number>();
  const edges = new Set<number>();
  for (const w of warnings) {
    if (w.kind === 'waypointOnObstacle') waypoints.add(w.waypointId);
    else edges.add(w.edgeId);
  }
  return { waypoints, edges };
}
