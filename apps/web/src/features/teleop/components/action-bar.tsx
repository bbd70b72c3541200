import { Badge, Button, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { RECORDING_ACTIVE_STATES, type CameraId, type RecordingState, type RobotCapabilities } from '@portal/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { useRobotActions } from '../hooks/use-robot-action';
import { PhotosDrawer } from './photos-drawer';

const PHOTO_WAIT_MS = 20_000;

const recordingColor: Record<RecordingState, string> = {
  idle: 'gray',
  preparing: 'yellow',
  started: 'red',
  compressing: 'orange',
  saved: 'teal',
  uploading: 'blue',
  uploaded: 'teal',
};

interface ActionBarProps {
  robotId: number;
  /** The robot's building: photo times are in its zone. */
  buildingId?: number;
  capabilities: RobotCapabilities;
  recording: RecordingState;
  /** The camera shown now (the photo is taken with it). */
  camera: CameraId | null;
  actions: ReturnType<typeof useRobotActions>;
  enabled: boolean;
  /** The work plan action (chooser and step panel, composed by the route); else a link to the work plans. */
  workPlan?: ReactNode;
}

/** The action menu of the operator screen: photo (and the latest photos), long-term recording, work plan. */
export function ActionBar({
  robotId,
  buildingId,
  capabilities,
  recording,
  camera,
  actions,
  enabled,
  workPlan,
}: ActionBarProps) {
  const { t } = useTranslation();
  const [photosOpen, setPhotosOpen] = useState(false);
  const [waitingPhoto, setWaitingPhoto] = useState(false);
  const [recordingNotice, setRecordingNotice] = useState<'alreadyStarted' | 'notStarted' | null>(null);

  useEffect(() => {
    if (!waitingPhoto) return;
    const timer = setTimeout(() => setWaitingPhoto(false), PHOTO_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waitingPhoto]);

  const photoCamera = camera ?? capabilities.cameras[0] ?? null;
  const recordingAction = async (type: 'startRecording' | 'stopRecording') => {
    setRecordingNotice(null);
    const code = await actions.run(
      { type },
      t(type === 'startRecording' ? 'teleopScreen.actions.recordingRequested' : 'teleopScreen.actions.stopRequested'),
    );
    if (code === 'RECORDING_ALREADY_STARTED') setRecordingNotice('alreadyStarted');
    else if (code === 'RECORDING_NOT_STARTED') setRecordingNotice('notStarted');
  };
  const active = RECORDING_ACTIVE_STATES.includes(recording);

  return (
    <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('teleopScreen.actions.title')}>
      {capabilities.photo && photoCamera && (
        <>
          <Button
            size="xs"
            disabled={!enabled}
            loading={actions.pending === 'takePhoto'}
            onClick={() =>
              void actions
                .run({ type: 'takePhoto', camera: photoCamera }, t('teleopScreen.actions.photoRequested'))
                .then((code) => {
                  if (code !== null) return;
                  setWaitingPhoto(true);
                  setPhotosOpen(true);
                })
            }
            data-testid="teleop-photo"
          >
            {t('teleopScreen.actions.photo')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setPhotosOpen(true)} data-testid="teleop-photos">
            {t('teleopScreen.actions.photos')}
          </Button>
        </>
      )}
      {capabilities.recording && (
        <Group gap={6} wrap="nowrap">
          <Badge
            color={recordingColor[recording]}
            variant={recording === 'started' ? 'filled' : 'light'}
            data-testid="teleop-recording"
            data-state={recording}
            style={{ textTransform: 'none' }}
          >
            {recording === 'started' ? '● ' : ''}
            {t(`teleopScreen.recording.${recording}`)}
          </Badge>
          <Button
            size="xs"
            variant={active ? 'default' : 'light'}
            color="red"
            disabled={!enabled}
            loading={actions.pending === 'startRecording'}
            onClick={() => void recordingAction('startRecording')}
            data-testid="teleop-recording-start"
          >
            {t('teleopScreen.actions.startRecording')}
          </Button>
          <Button
            size="xs"
            variant={active ? 'light' : 'default'}
            disabled={!enabled}
            loading={actions.pending === 'stopRecording'}
            onClick={() => void recordingAction('stopRecording')}
            data-testid="teleop-recording-stop"
          >
            {t('teleopScreen.actions.stopRecording')}
          </Button>
          {recordingNotice && (
            <Text
              size="xs"
              c="orange"
              role="status"
              data-testid="teleop-recording-notice"
              data-notice={recordingNotice}
            >
              {t(`teleopScreen.actions.${recordingNotice}`)}
            </Text>
          )}
        </Group>
      )}
      {capabilities.workPlan && workPlan ? (
        workPlan
      ) : capabilities.workPlan ? (
        <Button
          size="xs"
          variant="default"
          component={Link}
          to={paths.workplan.settings.getHref()}
          target="_blank"
          data-testid="teleop-workplan"
        >
          {t('teleopScreen.actions.workPlan')}
        </Button>
      ) : (
        <Tooltip label={t('teleopScreen.actions.workPlanUnavailable')}>
          <span>
            <Button
              size="xs"
              variant="default"
              disabled
              aria-describedby="teleop-workplan-why"
              data-testid="teleop-workplan"
            >
              {t('teleopScreen.actions.workPlan')}
            </Button>
            <VisuallyHidden id="teleop-workplan-why">{t('teleopScreen.actions.workPlanUnavailable')}</VisuallyHidden>
          </span>
        </Tooltip>
      )}
      <PhotosDrawer
        robotId={robotId}
        buildingId={buildingId}
        opened={photosOpen}
        onClose={() => setPhotosOpen(false)}
        waiting={waitingPhoto}
      />
    </Group>
  );
}
