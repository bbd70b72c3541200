import { EventEmitter } from 'node:events';
import type { MapSession } from '@portal/contract';
import type { RobotLink, RobotRef } from '../robot-link/types.ts';

/** A robot's map session changed (null: it ended); the realtime gateway forwards it as `mapSession`. */
export interface MapSessionEvent extends RobotRef {
  session: MapSession | null;
}

export interface MapSessionEvents {
  emit(e: MapSessionEvent): void;
  on(listener: (e: MapSessionEvent) => void): () => void;
}

const buses = new WeakMap<RobotLink, MapSessionEvents>();

/**
 * The map sessions' event bus of one robot link (one per app: the sessions service emits, the
 * realtime gateway listens), so neither needs the other in the app context.
 */
export function mapSessionEvents(link: RobotLink): MapSessionEvents {
  let bus = buses.get(link);
  if (!bus) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    bus = {
      emit: (e) => void emitter.emit('mapSession', e),
      on(listener) {
        emitter.on('mapSession', listener);
        return () => void emitter.off('mapSession', listener);
      },
    };
    buses.set(link, bus);
  }
  return bus;
}
