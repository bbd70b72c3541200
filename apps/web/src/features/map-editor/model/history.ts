import type { MapDocument } from '@portal/contract';
import type { Command } from './commands';

/** Undo and redo stacks of document commands. A new command clears the redo stack. */
export class History {
  private undos: Array<Command & { seq: number }> = [];
  private redos: Array<Command & { seq: number }> = [];
  private seq = 0;

  constructor(private readonly limit = 200) {}

  push(command: Command): void {
    this.undos.push({ ...command, seq: ++this.seq });
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
  }

  undo(doc: MapDocument): MapDocument | null {
    const c = this.undos.pop();
    if (!c) return null;
    this.redos.push(c);
    return c.revert(doc);
  }

  redo(doc: MapDocument): MapDocument | null {
    const c = this.redos.pop();
    if (!c) return null;
    this.undos.push(c);
    return c.apply(doc);
  }

  clear(): void {
    this.undos = [];
    this.redos = [];
  }

  /** Identifies the current state: the newest applied command (0 = none); new commands never repeat one. */
  get top(): number {
    return this.undos.at(-1)?.seq ?? 0;
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }
  get canRedo(): boolean {
    return this.redos.length > 0;
  }
  /** Labels, oldest first (tests and the tooltip of the undo button). */
  get labels(): string[] {
    return this.undos.map((c) => c.label);
  }
}
