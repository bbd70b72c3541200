import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  fleetTopic,
  ROUTE_POINT_INTERVAL,
  type FloorMap,
  type MapSession,
  type MapSessionState,
} from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useFleet, useMapSession } from '@/lib/realtime';
import {
  getMapSession,
  useStartMapSession,
  usePauseMapSession,
  useStopMapping,
  useStopRecording,
  type MapSessionKind,
} from '../api/map-session';
import type { EditorStore } from '../model/store';
import { robotFloor } from './live-feed';
import { useMapMessageText } from './message-text';
import { feedOverlay, type SessionOverlaySource } from './session-overlay';

interface MapSessionPanelProps {
  store: EditorStore;
  floorId: number;
  buildingId: number;
  overlay: SessionOverlaySource;
  /** The robot's map replaced the floor's image: load the floor map again. */
  onImageSaved: () => void;
  /** The recorded route was saved as a new revision (`name`: the route's name). */
  onRouteSaved: (map: FloorMap, name: string) => void;
}

const RUNNING: readonly MapSessionState[] = ['recording', 'paused', 'resumed'];
export const isRunning = (s: MapSession | null): s is MapSession => s !== null && RUNNING.includes(s.state);

const badgeColor: Record<MapSessionState, string> = {
  recording: 'red',
  paused: 'yellow',
  resumed: 'red',
  saved: 'teal',
  cancelled: 'gray',
};

const NAME_MAX = 40;
type Dialog = 'saveMap' | 'saveRoute' | 'discard' | null;

const intervalOk = (v: number | string): v is number =>
  typeof v === 'number' && v >= ROUTE_POINT_INTERVAL.min && v <= ROUTE_POINT_INTERVAL.max;

/**
 * Map creation and route recording by a robot on this floor (administrators): start, pause and
 * resume, then save or discard. The robot's map so far and the recorded points are drawn on the
 * canvas (through `overlay`) as `mapSession` messages arrive.
 */
export function MapSessionPanel({
  store,
  floorId,
  buildingId,
  overlay,
  onImageSaved,
  onRouteSaved,
}: MapSessionPanelProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const messageText = useMapMessageText();
  const topic = fleetTopic(buildingId);
  const fleet = useFleet(topic, { poses: false });
  const robots = [...fleet.robots.values()].filter((r) => robotFloor(r) === floorId);
  const [robotId, setRobotId] = useState<number | null>(null);
  const [session, setSession] = useMapSession(robotId, topic);
  const [kind, setKind] = useState<MapSessionKind>('mapping');
  const [interval, setPointInterval] = useState<number | string>(ROUTE_POINT_INTERVAL.default);
  const [intervalError, setIntervalError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [ended, setEnded] = useState<MapSessionState | null>(null);
  const start = useStartMapSession();
  const pause = usePauseMapSession();
  const stopMapping = useStopMapping(floorId);
  const stopRecording = useStopRecording(floorId);
  const running = isRunning(session) ? session : null;
  const mode: MapSessionKind = running?.kind ?? kind;
  const robot = robots.find((r) => r.id === robotId) ?? null;
  const busy = start.isPending || pause.isPending || stopMapping.isPending || stopRecording.isPending;

  // The session a robot already has (another tab started it, or the page was reloaded). Its state
  // is shown without a notification.
  const notified = useRef<string | null>(null);
  useEffect(() => {
    if (robotId === null) return;
    let live = true;
    getMapSession(robotId).then(
      (s) => {
        if (!live || !s) return;
        notified.current = `${s.robotId}|${s.startedAt}|${s.state}`;
        setSession(s);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [robotId, setSession]);

  // Each state as it happens: a short notification (once, whether REST or the WebSocket told first).
  useEffect(() => {
    if (!session) return;
    const key = `${session.robotId}|${session.startedAt}|${session.state}`;
    if (notified.current === key) return;
    notified.current = key;
    showNotification({
      color: badgeColor[session.state],
      message: t(`mapEditor.session.states.${session.state}`),
      autoClose: 2000,
    });
  }, [session, t]);

  // The canvas overlay follows the session (only one of this floor).
  useEffect(
    () => feedOverlay(overlay, session && session.floorId === floorId ? session : null),
    [overlay, session, floorId],
  );
  useEffect(() => () => overlay.clear(), [overlay]);

  const fail = (e: unknown) => {
    let message: string;
    // Offline, busy mapping, no map yet...: the server's reason through the one mapping (errorText).
    if (isApiError(e) && e.code === 'FORBIDDEN') message = t('mapEditor.session.errors.forbidden');
    else if (isApiError(e) && e.code === 'VALIDATION_FAILED' && e.details.length > 0) {
      const nameDetail = e.details.find((d) => d.path === 'name');
      if (nameDetail) setNameError(messageText(nameDetail.message) ?? null);
      message = e.details.map((d) => messageText(d.message)).join(' ');
    } else message = errorText(e);
    showNotification({ color: 'red', message });
  };

  const onStart = () => {
    if (!robot) return;
    if (mode === 'recording' && !intervalOk(interval)) {
      setIntervalError(t('mapEditor.session.intervalRange'));
      return;
    }
    start.mutate(
      { kind: mode, robotId: robot.id, floorId, pointInterval: intervalOk(interval) ? interval : 0 },
      {
        onSuccess: (s) => {
          setEnded(null);
          setSession(s);
        },
        onError: fail,
      },
    );
  };

  const onPause = (paused: boolean) => {
    if (!running) return;
    pause.mutate(
      { kind: running.kind, robotId: running.robotId, paused },
      { onSuccess: (s) => setSession(s ?? { ...running, state: paused ? 'paused' : 'resumed' }), onError: fail },
    );
  };

  const finish = (state: MapSessionState) => {
    setEnded(state);
    setDialog(null);
  };

  const onSaveMap = () => {
    if (!running) return;
    stopMapping.mutate(
      { robotId: running.robotId, save: true },
      {
        onSuccess: (s) => {
          finish('saved');
          setSession(s ?? { ...running, state: 'saved' });
          onImageSaved();
        },
        onError: fail,
      },
    );
  };

  const onSaveRoute = () => {
    if (!running) return;
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('validation.required'));
    if (trimmed.length > NAME_MAX) return setNameError(t('validation.max40'));
    setNameError(null);
    stopRecording.mutate(
      { robotId: running.robotId, save: true, name: trimmed },
      {
        onSuccess: (map) => {
          finish('saved');
          setName('');
          setSession({ ...running, state: 'saved' });
          if (map) onRouteSaved(map, trimmed);
        },
        onError: fail,
      },
    );
  };

  const onDiscard = () => {
    if (!running) return;
    const done = {
      onSuccess: () => {
        finish('cancelled');
        setSession({ ...running, state: 'cancelled' });
      },
      onError: fail,
    };
    if (running.kind === 'mapping') stopMapping.mutate({ robotId: running.robotId, save: false }, done);
    else stopRecording.mutate({ robotId: running.robotId, save: false }, done);
  };

  const state = session?.state ?? ended;
  const recordedCount = running?.kind === 'recording' ? running.points.length : 0;
  const mapSize =
    running?.kind === 'mapping' && running.map
      ? {
          width: (running.map.width * running.map.resolution).toFixed(1),
          height: (running.map.height * running.map.resolution).toFixed(1),
        }
      : null;

  return (
    <Stack gap={6} p="xs" data-testid="map-session">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h6">
          {t('mapEditor.session.title')}
        </Title>
        {state && (
          <Badge color={badgeColor[state]} variant="light" data-testid="map-session-state">
            {t(`mapEditor.session.states.${state}`)}
          </Badge>
        )}
      </Group>
      {robots.length === 0 && !running ? (
        <Text size="xs" c="dimmed">
          {t('mapEditor.session.noRobots')}
        </Text>
      ) : (
        <Select
          size="xs"
          label={t('mapEditor.session.robot')}
          data={robots.map((r) => ({ value: String(r.id), label: r.name, disabled: !r.live.online }))}
          value={robotId === null ? null : String(robotId)}
          onChange={(v) => {
            setRobotId(v === null ? null : Number(v));
            setEnded(null);
          }}
          disabled={running !== null}
          data-testid="map-session-robot"
        />
      )}
      <SegmentedControl
        size="xs"
        fullWidth
        value={mode}
        onChange={(v) => setKind(v as MapSessionKind)}
        disabled={running !== null}
        data={[
          { value: 'mapping', label: t('mapEditor.session.createMap') },
          { value: 'recording', label: t('mapEditor.session.recordRoute') },
        ]}
        data-testid="map-session-kind"
      />
      {mode === 'recording' && !running && (
        <NumberInput
          size="xs"
          label={t('mapEditor.session.interval')}
          description={t('mapEditor.session.intervalHint')}
          min={ROUTE_POINT_INTERVAL.min}
          max={ROUTE_POINT_INTERVAL.max}
          step={0.1}
          decimalScale={2}
          clampBehavior="none"
          value={interval}
          error={intervalError}
          onChange={(v) => {
            setPointInterval(v);
            setIntervalError(null);
          }}
          data-testid="map-session-interval"
        />
      )}
      {running ? (
        <>
          <Text size="xs" c="dimmed" data-testid="map-session-progress">
            {running.kind === 'recording'
              ? t('mapEditor.session.points', { count: recordedCount })
              : mapSize
                ? t('mapEditor.session.mapSize', mapSize)
                : t('mapEditor.session.waitingForMap')}
          </Text>
          <Group gap={6} grow>
            {running.state === 'paused' ? (
              <Button
                size="xs"
                variant="light"
                onClick={() => onPause(false)}
                loading={pause.isPending}
                disabled={busy}
                data-testid="map-session-resume"
              >
                {t('mapEditor.session.resume')}
              </Button>
            ) : (
              <Button
                size="xs"
                variant="light"
                onClick={() => onPause(true)}
                loading={pause.isPending}
                disabled={busy}
                data-testid="map-session-pause"
              >
                {t('mapEditor.session.pause')}
              </Button>
            )}
            <Button
              size="xs"
              onClick={() => {
                setNameError(null);
                setDialog(running.kind === 'mapping' ? 'saveMap' : 'saveRoute');
              }}
              disabled={busy}
              data-testid="map-session-save"
            >
              {t('mapEditor.session.save')}
            </Button>
            <Button
              size="xs"
              variant="default"
              color="red"
              onClick={() => setDialog('discard')}
              disabled={busy}
              data-testid="map-session-discard"
            >
              {t('mapEditor.session.discard')}
            </Button>
          </Group>
        </>
      ) : (
        <Button
          size="xs"
          disabled={!robot || !robot.live.online}
          loading={start.isPending}
          onClick={onStart}
          data-testid="map-session-start"
        >
          {t(mode === 'mapping' ? 'mapEditor.session.startMapping' : 'mapEditor.session.startRecording')}
        </Button>
      )}

      <Modal
        opened={dialog === 'saveMap'}
        onClose={() => setDialog(null)}
        title={t('mapEditor.session.saveMapTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('mapEditor.session.saveMapBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={onSaveMap} loading={stopMapping.isPending} data-testid="map-session-confirm-map">
              {t('mapEditor.session.replaceImage')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={dialog === 'saveRoute'}
        onClose={() => setDialog(null)}
        title={t('mapEditor.session.saveRouteTitle')}
        centered
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onSaveRoute();
          }}
        >
          <Stack>
            <TextInput
              label={t('mapEditor.session.routeName')}
              value={name}
              error={nameError}
              required
              data-autofocus
              onChange={(e) => {
                setName(e.currentTarget.value);
                setNameError(null);
              }}
              data-testid="map-session-route-name"
            />
            {store.dirty && (
              <Alert color="yellow" py={6} data-testid="map-session-unsaved">
                <Text size="sm">{t('mapEditor.session.unsavedWarning')}</Text>
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={stopRecording.isPending} data-testid="map-session-confirm-route">
                {t('mapEditor.session.saveRoute')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal
        opened={dialog === 'discard'}
        onClose={() => setDialog(null)}
        title={t(mode === 'mapping' ? 'mapEditor.session.discardMapTitle' : 'mapEditor.session.discardRouteTitle')}
        centered
      >
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setDialog(null)}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={onDiscard} loading={busy} data-testid="map-session-confirm-discard">
            {t('mapEditor.session.discard')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
