import {
  floorMapId,
  MAPPING_RESOLUTION,
  MappingAction,
  WaypointType,
  type FloorMap,
  type MapDocument,
  type MapPoint,
  type MapSession,
  type MapSessionState,
  type RobotStatusCodeValue,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { occupancyPngOffThread } from '../../lib/image-worker.ts';
import { recorder, requireManager } from '../buildings/common.ts';
import { floorService } from '../floors/floor-service.ts';
import { mapService } from '../maps/map-service.ts';
import { robotRepo } from '../robots/robot-repo.ts';
import type { MappingEvent, PoseEvent, RegistryEvent, RobotRef } from '../robot-link/types.ts';
import { mapSessionEvents } from './events.ts';
import type { AuditAction } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'dialect' | 'clock' | 'audit' | 'config' | 'fileStore' | 'robotLink' | 'log'>;

/** How long stopping a mapping with save waits for the robot's FINISHED grid before using the last one. */
export const MAPPING_FINISH_WAIT_MS = 5_000;
/** At most one PNG encoding of a robot's growing grid per this many ms. */
const MAP_ENCODE_EVERY_MS = 1_000;
/** Route recording updates go to the browsers at most this often (about 2 per second). */
const RECORDING_PUSH_EVERY_MS = 500;
/** The route schema's limit of recorded points. */
const RECORDED_POINTS_MAX = 20_000;
/** Attempts of a route save that lost the race for the next map revision. */
const SAVE_ATTEMPTS = 3;

interface Grid {
  width: number;
  height: number;
  resolution: number;
  originX: number;
  originY: number;
  cells: Buffer;
}

interface Session {
  ref: RobotRef;
  floorId: number;
  kind: MapSession['kind'];
  state: MapSessionState;
  startedAt: string;
  /** A stop is under way (a second stop is refused; recording stops sampling meanwhile). */
  stopping: boolean;
  // ---- mapping
  grid: Grid | null;
  map: MapSession['map'];
  /** The robot reported FINISHED or CANCELLED. */
  finished: boolean;
  encodedAt: number;
  encodeTimer: NodeJS.Timeout | null;
  onFinish: (() => void) | null;
  // ---- recording
  points: MapPoint[];
  pointInterval: number | null;
  pushedAt: number;
  pushTimer: NodeJS.Timeout | null;
}

const gridMissing = () =>
  new AppError('CONFLICT', 'The robot has sent no map yet; nothing was saved', [
    { path: 'map', message: 'validation.noMap' },
  ]);

/**
 * A robot's map sessions (docs/api-maps.md "Mapping and route recording"): mapping (the robot
 * builds a floor's occupancy grid; on save it becomes the floor's map image) and route recording
 * (the portal samples the robot's positions; on save they become a recorded route). At most one
 * session per robot, **in memory** on the server whose API started it: a restart forgets it (the
 * robot keeps mapping until told to stop; a recording is lost). Starting, pausing, resuming and
 * stopping change the floor's map, so they are for the roles that edit floor maps.
 */
export function mapSessionService(ctx: Ctx) {
  const { db, clock, robotLink: link, log } = ctx;
  const maps = mapService(ctx);
  const robots = robotRepo(db);
  const record = recorder(ctx.audit);
  const bus = mapSessionEvents(link);
  const sessions = new Map<number, Session>();

  const view = (s: Session): MapSession => ({
    robotId: s.ref.robotId,
    floorId: s.floorId,
    kind: s.kind,
    state: s.state,
    startedAt: s.startedAt,
    map: s.map,
    points: s.kind === 'recording' ? [...s.points] : [],
    pointInterval: s.pointInterval,
  });

  const push = (s: Session) => bus.emit({ ...s.ref, session: view(s) });

  function clearTimers(s: Session) {
    if (s.encodeTimer) clearTimeout(s.encodeTimer);
    if (s.pushTimer) clearTimeout(s.pushTimer);
    s.encodeTimer = s.pushTimer = null;
  }

  /** The session ends with this state: the browsers hear it last, then it is forgotten. */
  function end(s: Session, state: MapSessionState): MapSession {
    clearTimers(s);
    s.onFinish?.();
    s.state = state;
    if (sessions.get(s.ref.robotId) === s) sessions.delete(s.ref.robotId);
    push(s);
    return view(s);
  }

  const current = (s: Session) => sessions.get(s.ref.robotId) === s;

  // ------------------------------------------------------------------ mapping messages
  const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
  const frameOf = (g: Grid, png: Buffer): NonNullable<MapSession['map']> => ({
    image: dataUrl(png),
    width: g.width,
    height: g.height,
    resolution: g.resolution,
    originX: g.originX,
    originY: g.originY,
  });

  function encodeNow(s: Session) {
    if (s.encodeTimer) clearTimeout(s.encodeTimer);
    s.encodeTimer = null;
    if (!current(s) || !s.grid) return;
    s.encodedAt = Date.now();
    const g = s.grid;
    // Encoded on the image worker (a large grid takes about a second): the event loop goes on.
    occupancyPngOffThread(g.width, g.height, g.cells)
      .then((png) => {
        // A newer grid arrived meanwhile: its own encoding follows; this one is dropped.
        if (!current(s) || s.grid !== g) return;
        s.map = frameOf(g, png);
        push(s);
      })
      .catch((err: unknown) => log.error({ err, robotId: s.ref.robotId }, 'mapping grid not encoded'));
  }

  /** The newest grid is encoded at once, or when a second has passed since the last encoding. */
  function scheduleEncode(s: Session) {
    const wait = s.encodedAt + MAP_ENCODE_EVERY_MS - Date.now();
    if (wait <= 0) return encodeNow(s);
    if (!s.encodeTimer) {
      s.encodeTimer = setTimeout(() => encodeNow(s), wait);
      s.encodeTimer.unref();
    }
  }

  const offMapping = link.on('mapping', (e: MappingEvent) => {
    const s = sessions.get(e.robotId);
    const m = e.message;
    if (!s || s.kind !== 'mapping' || m.mapId !== floorMapId(s.floorId)) {
      log.debug({ robotId: e.robotId, mapId: m.mapId }, 'mapping message without a mapping session ignored');
      return;
    }
    s.grid = {
      width: m.width,
      height: m.height,
      resolution: m.resolution,
      originX: m.originX,
      originY: m.originY,
      cells: Buffer.from(m.cells, 'base64'),
    };
    if (m.state === 'FINISHED' || m.state === 'CANCELLED') {
      s.finished = true;
      s.onFinish?.();
      // The robot gave up on its own: the session ends (a stop under way handles it itself).
      if (m.state === 'CANCELLED' && !s.stopping) {
        end(s, 'cancelled');
        return;
      }
    }
    scheduleEncode(s);
  });

  // ------------------------------------------------------------------ route recording samples
  function schedulePush(s: Session) {
    const wait = s.pushedAt + RECORDING_PUSH_EVERY_MS - Date.now();
    const go = () => {
      s.pushTimer = null;
      if (!current(s)) return;
      s.pushedAt = Date.now();
      push(s);
    };
    if (wait <= 0) return go();
    if (!s.pushTimer) {
      s.pushTimer = setTimeout(go, wait);
      s.pushTimer.unref();
    }
  }

  const offPose = link.on('pose', (e: PoseEvent) => {
    const s = sessions.get(e.robotId);
    if (!s || s.kind !== 'recording' || s.state === 'paused' || s.stopping) return;
    if (e.position.floorId !== s.floorId || s.points.length >= RECORDED_POINTS_MAX) return;
    const last = s.points[s.points.length - 1];
    if (last && Math.hypot(e.position.x - last.x, e.position.y - last.y) < s.pointInterval!) return;
    s.points.push({ x: e.position.x, y: e.position.y });
    schedulePush(s);
  });

  // A deleted robot's session ends.
  const offRegistry = link.on('registry', (e: RegistryEvent) => {
    const s = sessions.get(e.robotId);
    if (s && !link.robot(e.robotId)) end(s, 'cancelled');
  });

  // ------------------------------------------------------------------ checks
  async function robotInScope(p: Principal, robotId: number) {
    const robot = await robots.find(p, robotId);
    if (!robot) throw notFound('Robot');
    return robot;
  }

  /** The robot online and standing on the floor (its live position's map). */
  function requireOnFloor(robot: { id: number; status: number }, floorId: number) {
    const live = link.live({ id: robot.id, status: robot.status as RobotStatusCodeValue });
    if (!live.online) throw new AppError('ROBOT_OFFLINE', 'The robot is offline');
    const position = live.position;
    if (!position) {
      throw new AppError('VALIDATION_FAILED', 'The robot has not reported its position yet', [
        { path: 'robot', message: 'validation.positionUnknown' },
      ]);
    }
    if (position.floorId !== floorId) {
      throw new AppError('VALIDATION_FAILED', `The robot is on another floor (map ${position.mapId})`, [
        { path: 'floorId', message: 'validation.robotOnOtherFloor', code: position.mapId },
      ]);
    }
    return position;
  }

  function requireFree(robotId: number) {
    const s = sessions.get(robotId);
    if (s) {
      throw new AppError('CONFLICT', `The robot is already ${s.kind === 'mapping' ? 'mapping' : 'recording a route'}`, [
        { path: 'robot', message: 'validation.sessionRunning', code: s.kind },
      ]);
    }
  }

  /** The robot's running session of this kind (scope and role checked). */
  async function sessionOf(p: Principal, robotId: number, kind: MapSession['kind']): Promise<Session> {
    requireManager(p);
    await robotInScope(p, robotId);
    const s = sessions.get(robotId);
    if (!s || s.kind !== kind) throw notFound(kind === 'mapping' ? 'Mapping session' : 'Route recording');
    return s;
  }

  function newSession(robot: { id: number; organization_id: number; building_id: number }, floorId: number) {
    const s: Session = {
      ref: { robotId: robot.id, organizationId: robot.organization_id, buildingId: robot.building_id },
      floorId,
      kind: 'mapping',
      state: 'recording',
      startedAt: clock().toISOString(),
      stopping: false,
      grid: null,
      map: null,
      finished: false,
      encodedAt: 0,
      encodeTimer: null,
      onFinish: null,
      points: [],
      pointInterval: null,
      pushedAt: 0,
      pushTimer: null,
    };
    return s;
  }

  const audited = (p: Principal, s: Session, ip: string, action: AuditAction, detail: Record<string, unknown> = {}) =>
    record(p, ip, action, { type: 'robot', id: s.ref.robotId }, { floorId: s.floorId, ...detail }).catch(
      (err: unknown) => log.error({ err, action }, 'map session audit entry not written'),
    );

  // ------------------------------------------------------------------ saving
  const floors = floorService(ctx);

  const shortName = (name: string, suffix: string) => `${name.slice(0, 40 - suffix.length - 1).trimEnd()} ${suffix}`;

  /** A new revision with the route and its two waypoints (ids max + 1), retried when another save won. */
  async function saveRoute(p: Principal, s: Session, name: string, ip: string): Promise<FloorMap> {
    const pts = s.points;
    const first = pts[0]!;
    const second = pts[1]!;
    const last = pts[pts.length - 1]!;
    const beforeLast = pts[pts.length - 2]!;
    for (let attempt = 1; ; attempt++) {
      const cur = await maps.get(p, s.floorId);
      const doc = cur.document;
      const maxWaypoint = doc.waypoints.reduce((m, w) => Math.max(m, w.id), 0);
      const routeId = doc.routes.reduce((m, r) => Math.max(m, r.id), 0) + 1;
      const startId = maxWaypoint + 1;
      const endId = maxWaypoint + 2;
      const document: MapDocument = {
        ...doc,
        waypoints: [
          ...doc.waypoints,
          {
            id: startId,
            name: shortName(name, 'start'),
            x: first.x,
            y: first.y,
            theta: Math.atan2(second.y - first.y, second.x - first.x),
            type: WaypointType.normal,
          },
          {
            id: endId,
            name: shortName(name, 'end'),
            x: last.x,
            y: last.y,
            theta: Math.atan2(last.y - beforeLast.y, last.x - beforeLast.x),
            type: WaypointType.normal,
          },
        ],
        routes: [
          ...doc.routes,
          {
            id: routeId,
            name,
            waypointIds: [startId, endId],
            recorded: { pointInterval: s.pointInterval!, points: pts.map((q) => ({ x: q.x, y: q.y })) },
          },
        ],
      };
      try {
        return await maps.save(
          p,
          s.floorId,
          { baseRevision: cur.revision, document, note: `route "${name}" recorded`, overwrite: false },
          ip,
        );
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'STALE_UPDATE') || attempt >= SAVE_ATTEMPTS) throw err;
      }
    }
  }

  // ------------------------------------------------------------------ the API
  return {
    async get(p: Principal, robotId: number): Promise<MapSession | null> {
      await robotInScope(p, robotId);
      const s = sessions.get(robotId);
      if (!s) return null;
      return view(s);
    },

    async startMapping(p: Principal, robotId: number, floorId: number, ip: string): Promise<MapSession> {
      requireManager(p);
      const robot = await robotInScope(p, robotId);
      await maps.floor(p, floorId);
      requireOnFloor(robot, floorId);
      requireFree(robotId);
      const s = newSession(robot, floorId);
      sessions.set(robotId, s);
      try {
        await link.instantAction(robotId, MappingAction.start, {
          mapId: floorMapId(floorId),
          resolution: String(MAPPING_RESOLUTION),
        });
      } catch (err) {
        sessions.delete(robotId);
        throw err;
      }
      await audited(p, s, ip, 'robot.mapping.start');
      push(s);
      return view(s);
    },

    /** Pause or resume (mapping: the robot is told; recording: the portal stops / resumes sampling). */
    async pauseResume(
      p: Principal,
      robotId: number,
      kind: MapSession['kind'],
      what: 'pause' | 'resume',
    ): Promise<MapSession> {
      const s = await sessionOf(p, robotId, kind);
      if (s.stopping) throw new AppError('CONFLICT', 'The session is stopping');
      if (kind === 'mapping') {
        await link.instantAction(robotId, what === 'pause' ? MappingAction.pause : MappingAction.resume, {});
      }
      if (!current(s)) throw notFound(kind === 'mapping' ? 'Mapping session' : 'Route recording');
      s.state = what === 'pause' ? 'paused' : 'resumed';
      push(s);
      return view(s);
    },

    /**
     * Stops mapping. With save: waits up to MAPPING_FINISH_WAIT_MS for the robot's FINISHED grid
     * (at once when it already sent one; the last grid when none comes or the robot is offline),
     * then stores it as the floor's map image.
     */
    async stopMapping(p: Principal, robotId: number, save: boolean, ip: string): Promise<MapSession> {
      const s = await sessionOf(p, robotId, 'mapping');
      if (s.stopping) throw new AppError('CONFLICT', 'The mapping is already stopping');
      s.stopping = true;
      try {
        let sent = true;
        try {
          await link.instantAction(robotId, MappingAction.stop, { save: String(save) });
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'ROBOT_OFFLINE')) throw err;
          sent = false; // a robot that is gone can still be cancelled, or its last grid saved
        }
        if (!save) {
          await audited(p, s, ip, 'robot.mapping.stop', { save });
          return end(s, 'cancelled');
        }
        if (sent && !s.finished) {
          await new Promise<void>((ok) => {
            const done = () => {
              clearTimeout(timer);
              s.onFinish = null;
              ok();
            };
            const timer = setTimeout(done, MAPPING_FINISH_WAIT_MS);
            s.onFinish = done;
          });
        }
        const g = s.grid;
        if (!g) {
          await audited(p, s, ip, 'robot.mapping.stop', { save, saved: false });
          end(s, 'cancelled');
          throw gridMissing();
        }
        const png = await occupancyPngOffThread(g.width, g.height, g.cells);
        // The grid becomes the floor's map image, as an upload would, with the grid's frame.
        await floors.setGeneratedMapImage(
          p,
          s.floorId,
          { bytes: png, width: g.width, height: g.height },
          { resolution: g.resolution, originX: g.originX, originY: g.originY },
          { source: 'mapping', robotId: s.ref.robotId },
          ip,
        );
        s.map = frameOf(g, png);
        await audited(p, s, ip, 'robot.mapping.stop', { save, saved: true, width: g.width, height: g.height });
        return end(s, 'saved');
      } finally {
        s.stopping = false;
      }
    },

    async startRecording(
      p: Principal,
      robotId: number,
      body: { floorId: number; pointInterval: number },
      ip: string,
    ): Promise<MapSession> {
      requireManager(p);
      const robot = await robotInScope(p, robotId);
      await maps.floor(p, body.floorId);
      const position = requireOnFloor(robot, body.floorId);
      requireFree(robotId);
      const s = newSession(robot, body.floorId);
      s.kind = 'recording';
      s.pointInterval = body.pointInterval;
      s.points.push({ x: position.x, y: position.y });
      sessions.set(robotId, s);
      await audited(p, s, ip, 'robot.route-recording.start', { pointInterval: body.pointInterval });
      push(s);
      return view(s);
    },

    /** Stops recording; with save, the points become a route of a new map revision (answered). */
    async stopRecording(
      p: Principal,
      robotId: number,
      body: { save: boolean; name: string },
      ip: string,
    ): Promise<MapSession | FloorMap> {
      const s = await sessionOf(p, robotId, 'recording');
      if (s.stopping) throw new AppError('CONFLICT', 'The recording is already stopping');
      if (!body.save) {
        await audited(p, s, ip, 'robot.route-recording.stop', { save: false });
        return end(s, 'cancelled');
      }
      if (!body.name) {
        throw new AppError('VALIDATION_FAILED', 'Name the route to save it', [
          { path: 'name', message: 'validation.required' },
        ]);
      }
      if (s.points.length < 2) {
        throw new AppError('VALIDATION_FAILED', 'The robot has not moved far enough for a route (two points)', [
          { path: 'points', message: 'validation.routeTooShort' },
        ]);
      }
      s.stopping = true;
      try {
        const saved = await saveRoute(p, s, body.name, ip);
        await audited(p, s, ip, 'robot.route-recording.stop', {
          save: true,
          name: body.name,
          points: s.points.length,
          revision: saved.revision,
        });
        end(s, 'saved');
        return saved;
      } finally {
        s.stopping = false;
      }
    },

    close(): void {
      offMapping();
      offPose();
      offRegistry();
      for (const s of sessions.values()) clearTimers(s);
    },
  };
}

export type MapSessionService = ReturnType<typeof mapSessionService>;
