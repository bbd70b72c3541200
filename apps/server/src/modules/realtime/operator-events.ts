import type { OperatorEvents } from '../../context.ts';

/**
 * The in-process "operator changed" events (context.ts OperatorEvents). Listeners run synchronously
 * in `changed`, so a socket is held before the answer of the change goes out; `share`, when given,
 * tells the other server instances (they pass what they hear to `heard`, which is not shared again).
 */
export function createOperatorEvents(share?: (operatorId: number) => void): OperatorEvents & {
  /** A change heard from another server instance (not shared again). */
  heard(operatorId: number): void;
} {
  const listeners = new Set<(operatorId: number) => void>();
  const emit = (operatorId: number) => {
    for (const l of [...listeners]) l(operatorId);
  };
  return {
    changed(operatorId) {
      emit(operatorId);
      share?.(operatorId);
    },
    heard: emit,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
