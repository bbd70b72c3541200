import { Box, SegmentedControl } from '@mantine/core';
import type { FloorMap } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorStore } from '../model/store';
import { MapSessionPanel } from './map-session-panel';
import type { SessionOverlaySource } from './session-overlay';
import { TrialRun } from './trial-run';

interface RobotToolsProps {
  store: EditorStore;
  floorId: number;
  buildingId: number;
  canEdit: boolean;
  overlay: SessionOverlaySource;
  onImageSaved: () => void;
  onRouteSaved: (map: FloorMap, name: string) => void;
}

/**
 * The side panel's robot part: the trial run, and for administrators map creation and route
 * recording next to it. Both stay mounted, so a running session keeps drawing while the trial run
 * shows.
 */
export function RobotTools({ canEdit, overlay, onImageSaved, onRouteSaved, ...common }: RobotToolsProps) {
  const { t } = useTranslation();
  const [view, setView] = useState<'trial' | 'session'>('trial');
  if (!canEdit) return <TrialRun {...common} />;
  return (
    <Box style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <SegmentedControl
        size="xs"
        fullWidth
        radius={0}
        value={view}
        onChange={(v) => setView(v as 'trial' | 'session')}
        data={[
          { value: 'trial', label: t('mapEditor.trial.title') },
          { value: 'session', label: t('mapEditor.session.tab') },
        ]}
        data-testid="robot-tools-view"
      />
      <Box display={view === 'trial' ? undefined : 'none'}>
        <TrialRun {...common} />
      </Box>
      <Box display={view === 'session' ? undefined : 'none'}>
        <MapSessionPanel {...common} overlay={overlay} onImageSaved={onImageSaved} onRouteSaved={onRouteSaved} />
      </Box>
    </Box>
  );
}
