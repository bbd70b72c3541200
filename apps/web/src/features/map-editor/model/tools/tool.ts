import type { MapDocument, MapEdge, Waypoint } from '@portal/contract';
import type { Command } from '../commands';
import type { Camera, EditorEvent, EditorNotice, SelectionItem, ToolId, ToolOptions, ToolPreview, Vec } from '../types';

/** What a tool's states may read and do: the editor as seen from a tool. */
export interface ToolContext {
  readonly doc: MapDocument;
  readonly selection: readonly SelectionItem[];
  readonly camera: Camera;
  readonly options: ToolOptions;
  readonly readOnly: boolean;
  /** Pointer slop and hit radius in metres at the current zoom. */
  tolerance(pixels?: number): number;
  hitWaypoint(p: Vec): Waypoint | null;
  hitEdge(p: Vec): MapEdge | null;
  /** The document item under p (waypoint, then edge, no-go area, partial map). */
  hitItem(p: Vec): SelectionItem | null;
  select(items: readonly SelectionItem[]): void;
  /** Remembers the document so a gesture can show changes and then commit or bail. */
  mark(): void;
  /** The document at the last mark (or now). */
  readonly marked: MapDocument;
  /** Shows a document without recording it (a gesture in progress). */
  transient(doc: MapDocument): void;
  /** Records a command from the mark (or now) as one undo step. False when read-only. */
  commit(command: Command): boolean;
  /** Drops the gesture's transient changes. */
  bail(): void;
  setPreview(preview: ToolPreview | null): void;
  setCamera(camera: Camera): void;
  notice(notice: EditorNotice): void;
  /** Asks the operator for text (a partial map's name); the answer arrives as {@link ToolMachine.submit}. */
  prompt(kind: 'partialMapName' | null): void;
}

/**
 * A state handles events and answers the next state's name, `true` when it used the event without
 * moving, or nothing when the event is not its business (keys then reach the editor's shortcuts).
 */
export type Outcome = string | true | void;

export interface ToolState<M> {
  onEnter?(ctx: ToolContext, memory: M): void;
  onEvent(ctx: ToolContext, memory: M, event: EditorEvent): Outcome;
  /** Escape or an interruption: drop what is in progress (the machine then goes to idle). */
  onCancel?(ctx: ToolContext, memory: M): void;
  /** Text the state asked for with `prompt`. */
  onSubmit?(ctx: ToolContext, memory: M, text: string): Outcome;
}

export interface ToolDefinition<M> {
  id: ToolId;
  createMemory(): M;
  /** Must include `idle`, the state the tool starts and returns to. */
  states: Record<string, ToolState<M>>;
}

/** Runs one tool's state chart and reports every state it enters. */
export class ToolMachine<M = unknown> {
  state = 'idle';
  private memory: M;

  constructor(
    readonly definition: ToolDefinition<M>,
    private readonly ctx: ToolContext,
    private readonly onTransition: (path: string) => void,
  ) {
    this.memory = definition.createMemory();
  }

  get id(): ToolId {
    return this.definition.id;
  }
  get path(): string {
    return `${this.definition.id}.${this.state}`;
  }
  get busy(): boolean {
    return this.state !== 'idle';
  }

  /** Delivers an event; true when the tool used it. */
  send(event: EditorEvent): boolean {
    const outcome = this.current().onEvent(this.ctx, this.memory, event);
    if (typeof outcome === 'string') this.transition(outcome);
    return outcome !== undefined;
  }

  submit(text: string): void {
    const outcome = this.current().onSubmit?.(this.ctx, this.memory, text);
    if (typeof outcome === 'string') this.transition(outcome);
  }

  /** Escape: the in-progress action is dropped and the tool is idle again. */
  cancel(): void {
    if (!this.busy) return;
    this.current().onCancel?.(this.ctx, this.memory);
    this.transition('idle');
  }

  private current(): ToolState<M> {
    const s = this.definition.states[this.state];
    if (!s) throw new Error(`Unknown state ${this.path}`);
    return s;
  }

  private transition(next: string): void {
    if (!this.definition.states[next]) throw new Error(`Unknown state ${this.definition.id}.${next}`);
    this.state = next;
    if (next === 'idle') this.memory = this.definition.createMemory();
    this.onTransition(this.path);
    this.definition.states[next]!.onEnter?.(this.ctx, this.memory);
  }
}

/** Pixels the pointer may wander before a press becomes a drag. */
export const DRAG_SLOP_PX = 4;
export const isPrimary = (e: EditorEvent): boolean => e.button === 0;
export const movedBeyondSlop = (from: Vec, e: EditorEvent): boolean =>
  Math.hypot(e.screen.x - from.x, e.screen.y - from.y) > DRAG_SLOP_PX;
