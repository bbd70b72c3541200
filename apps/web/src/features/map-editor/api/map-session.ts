import { mapSessionOps, type FloorMap, type MapSession } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { refreshMapParts } from './save-floor-map';

/**
 * A robot's map creation and route recording (issue 5): start, pause, resume, stop (save or
 * discard). The live progress arrives over the WebSocket (`mapSession`, lib/realtime).
 */
export type MapSessionKind = MapSession['kind'];

/** GET /robots/:id/map-session: the running session, null when there is none. */
export const getMapSession = (robotId: number): Promise<MapSession | null> =>
  client.call(mapSessionOps.getMapSession, { params: { id: robotId } });

const pauseOps = {
  mapping: { pause: mapSessionOps.pauseMapping, resume: mapSessionOps.resumeMapping },
  recording: { pause: mapSessionOps.pauseRouteRecording, resume: mapSessionOps.resumeRouteRecording },
} as const;

/** POST /robots/:id/mapping `{ floorId }` or /robots/:id/route-recording `{ floorId, pointInterval }` → 202. */
const startSession = (v: { kind: MapSessionKind; robotId: number; floorId: number; pointInterval: number }) =>
  v.kind === 'mapping'
    ? client.call(mapSessionOps.startMapping, { params: { id: v.robotId }, body: { floorId: v.floorId } })
    : client.call(mapSessionOps.startRouteRecording, {
        params: { id: v.robotId },
        body: { floorId: v.floorId, pointInterval: v.pointInterval },
      });

/** POST .../pause or .../resume: the session in its new state (the WebSocket brings it too). */
const setPaused = (v: { kind: MapSessionKind; robotId: number; paused: boolean }): Promise<MapSession> =>
  client.call(pauseOps[v.kind][v.paused ? 'pause' : 'resume'], { params: { id: v.robotId } });

/** POST /robots/:id/route-recording/stop `{ save, name }` → the new revision when saved. */
async function stopRecording(robotId: number, save: boolean, name = ''): Promise<FloorMap | null> {
  const answer = await client.call(mapSessionOps.stopRouteRecording, { params: { id: robotId }, body: { save, name } });
  return save && 'document' in answer ? answer : null;
}

export const useStartMapSession = () => useMutation({ mutationFn: startSession });

export const usePauseMapSession = () => useMutation({ mutationFn: setPaused });

/** Stop mapping (POST /robots/:id/mapping/stop `{ save }`): saved, the floor's image is the robot's map. */
export const useStopMapping = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { robotId: number; save: boolean }) =>
      client.call(mapSessionOps.stopMapping, { params: { id: v.robotId }, body: { save: v.save } }),
    onSuccess: (_s, v) => {
      if (!v.save) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.floors.detail(floorId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.maps.part(floorId, 'revisions') });
    },
  });
};

/** Stop recording: saved, the answer is the floor's new revision with the recorded route. */
export const useStopRecording = (floorId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { robotId: number; save: boolean; name?: string }) => stopRecording(v.robotId, v.save, v.name),
    onSuccess: (map) => {
      if (map) void refreshMapParts(queryClient, floorId);
    },
  });
};
