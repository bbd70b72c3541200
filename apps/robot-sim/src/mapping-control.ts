import {
  MAPPING_RESOLUTION,
  MappingAction,
  type ActionState,
  type MappingState,
  type VdaAction,
} from '@portal/contract';
import type { Header } from './messages.ts';
import { MappingSession, resolutionProblem } from './mapping.ts';
import { param } from './order-executor.ts';
import type { World } from './world.ts';

/** What map creation needs from the robot around it. */
export interface MappingHost {
  /** The robot's current map and pose. */
  pose(): { x: number; y: number; theta: number; mapId: string };
  worldOf(mapId: string): World;
  /** Real ms of the last tick. */
  now(): number;
  /** A header of the mapping topic (next headerId). */
  header(): Header;
  publish(payload: string): void;
}

/**
 * Map creation: the startMapping/pauseMapping/resumeMapping/stopMapping instant actions, the scans
 * while recording and the `mapping` messages (mapping.ts holds the grid).
 */
export class MappingControl {
  /** Map creation in progress (startMapping until stopMapping). */
  private session: MappingSession | null = null;

  constructor(private readonly host: MappingHost) {}

  /** The running startMapping's state, or undefined. */
  get actionState(): ActionState | undefined {
    return this.session?.actionState;
  }

  get active(): boolean {
    return this.session !== null;
  }

  /** Runs a mapping instant action; returns why it failed, or null. */
  action(a: VdaAction, st: ActionState): string | null {
    const m = this.session;
    if (a.actionType === MappingAction.start) {
      if (m) return `Already mapping ${m.mapId} (action ${m.actionState.actionId})`;
      const mapId = param(a, 'mapId');
      if (typeof mapId !== 'string' || mapId === '') return 'Parameter mapId (string) is missing';
      const current = this.host.pose().mapId;
      if (mapId !== current) return `mapId ${mapId} is not the robot's current map ${current}`;
      let resolution: unknown = param(a, 'resolution') ?? MAPPING_RESOLUTION;
      if (typeof resolution === 'string' && resolution.trim() !== '') resolution = Number(resolution);
      if (typeof resolution !== 'number') return 'Parameter resolution must be a number (m per cell)';
      const world = this.host.worldOf(mapId);
      const problem = resolutionProblem(world, resolution);
      if (problem) return problem;
      st.actionStatus = 'RUNNING';
      this.session = new MappingSession(mapId, world, resolution, st);
      return null;
    }
    if (!m) return `Not mapping: ${a.actionType} needs a startMapping first`;
    switch (a.actionType) {
      case MappingAction.pause:
        if (m.state !== 'PAUSED') {
          m.state = 'PAUSED';
          this.publish('PAUSED');
        }
        return null;
      case MappingAction.resume:
        if (m.state !== 'RECORDING') {
          m.state = 'RECORDING';
          this.publish('RECORDING');
        }
        return null;
      default: {
        let save: unknown = param(a, 'save') ?? true;
        if (save === 'true' || save === 'false') save = save === 'true';
        if (typeof save !== 'boolean') return 'Parameter save must be a boolean';
        this.publish(save ? 'FINISHED' : 'CANCELLED');
        m.actionState.actionStatus = 'FINISHED';
        m.actionState.resultDescription = save ? `Map ${m.mapId} finished` : `Map ${m.mapId} discarded`;
        this.session = null;
        return null;
      }
    }
  }

  /** Each tick while mapping: scan when due (recording, on the map being built), publish when due. */
  step(now: number): void {
    const m = this.session;
    if (!m) return;
    const p = this.host.pose();
    if (m.state === 'RECORDING' && p.mapId === m.mapId) m.maybeScan(p.x, p.y, p.theta, now);
    if (m.due(now)) this.publish(m.state);
  }

  private publish(state: MappingState): void {
    const m = this.session;
    if (!m) return;
    const msg = m.message(this.host.header(), state, this.host.now());
    this.host.publish(JSON.stringify(msg));
  }

  /** The map being built: null when not mapping. */
  state(): { mapId: string; state: MappingState; knownCells: number; resolution: number } | null {
    const m = this.session;
    return m && { mapId: m.mapId, state: m.state, knownCells: m.knownCells, resolution: m.resolution };
  }

  /** A copy of the grid being built (width × height bytes, row 0 at the bottom); null when not mapping. */
  grid(): Uint8Array | null {
    return this.session ? this.session.grid.slice() : null;
  }
}
