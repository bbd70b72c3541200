import { floorMapSchema, mapSessionSchema, type MapSession } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { mapKeys } from './keys';

/**
 * A robot's map creation and route recording (issue 5): start, pause, resume, stop (save or
 * discard). The live progress arrives over the WebSocket (`mapSession`, lib/realtime.ts).
 */
export type MapSessionKind = MapSession['kind'];

const base = (kind: MapSessionKind) => (kind === 'mapping' ? 'mapping' : 'route-recording');

/** GET /robots/:id/map-session: the running session, null when there is none. */
export const getMapSession = (robotId: number): Promise<MapSession | null> =>
  api.get(`/robots/${robotId}/map-session`, mapSessionSchema.nullable());

/** POST /robots/:id/mapping `{ floorId }` → 202 MapSession. */
export const startMapping = (robotId: number, floorId: number) =>
  api.send('POST', `/robots/${robotId}/mapping`, mapSessionSchema, { body: { floorId } });

/** POST /robots/:id/route-recording `{ floorId, pointInterval }` → 202 MapSession. */
export const startRecording = (robotId: number, floorId: number, pointInterval: number) =>
  api.send('POST', `/robots/${robotId}/route-recording`, mapSessionSchema, { body: { floorId, pointInterval } });

/**
 * POST .../pause or .../resume. The answer is the session when the server sends it; otherwise the
 * WebSocket brings the new state.
 */
export async function setMapSessionPaused(
  robotId: number,
  kind: MapSessionKind,
  paused: boolean,
): Promise<MapSession | null> {
  const res = await api.send(
    'POST',
    `/robots/${robotId}/${base(kind)}/${paused ? 'pause' : 'resume'}`,
    mapSessionSchema.nullable().catch(null),
  );
  return res;
}

/** POST /robots/:id/mapping/stop `{ save }` → the session (saved: the floor's image is the robot's map). */
export const stopMapping = (robotId: number, save: boolean) =>
  api.send('POST', `/robots/${robotId}/mapping/stop`, mapSessionSchema.nullable().catch(null), { body: { save } });

/** POST /robots/:id/route-recording/stop `{ save, name }` → the new revision when saved. */
export async function stopRecording(robotId: number, save: boolean, name = '') {
  if (save)
    return api.send('POST', `/robots/${robotId}/route-recording/stop`, floorMapSchema, { body: { save, name } });
  await api.command('POST', `/robots/${robotId}/route-recording/stop`, { body: { save, name } });
  return null;
}

export const useStartMapSession = () =>
  useMutation({
    mutationFn: (v: { kind: MapSessionKind; robotId: number; floorId: number; pointInterval: number }) =>
      v.kind === 'mapping' ? startMapping(v.robotId, v.floorId) : startRecording(v.robotId, v.floorId, v.pointInterval),
  });

export const usePauseMapSession = () =>
  useMutation({
    mutationFn: (v: { kind: MapSessionKind; robotId: number; paused: boolean }) =>
      setMapSessionPaused(v.robotId, v.kind, v.paused),
  });

/** Stop mapping: saved, the floor's image (and anything derived from it) is loaded again. */
export const useStopMapping = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { robotId: number; save: boolean }) => stopMapping(v.robotId, v.save),
    onSuccess: (_s, v) => {
      if (!v.save) return;
      void queryClient.invalidateQueries({ queryKey: mapKeys.floor(floorId) });
      void queryClient.invalidateQueries({ queryKey: mapKeys.revisions(floorId) });
    },
  });
};

/** Stop recording: saved, the answer is the floor's new revision with the recorded route. */
export const useStopRecording = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { robotId: number; save: boolean; name?: string }) => stopRecording(v.robotId, v.save, v.name),
    onSuccess: (map) => {
      if (!map) return;
      void queryClient.invalidateQueries({ queryKey: mapKeys.revisions(floorId) });
      void queryClient.invalidateQueries({ queryKey: mapKeys.waypoints(floorId) });
    },
  });
};
