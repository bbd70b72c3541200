import type { RobotMark } from './draw';

/** Robot positions for the live layer: written per poses frame, read by the canvas when it draws. */
export class LiveSource {
  private robots: readonly RobotMark[] = [];
  private readonly listeners = new Set<() => void>();

  get(): readonly RobotMark[] {
    return this.robots;
  }
  set(robots: readonly RobotMark[]): void {
    this.robots = robots;
    for (const l of this.listeners) l();
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
