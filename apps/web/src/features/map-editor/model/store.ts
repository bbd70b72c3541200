import type { MapDocument, MapEdge, MapImage, NoGoArea, PartialMap, Waypoint } from '@portal/contract';
import { copySelection, deleteSelection, paste, routeFromSelection, type Clipboard } from './actions';
import { fitCamera, imageBounds, screenToWorld, zoomAt } from './camera';
import { removeItems, updateItem, type Command } from './commands';
import { documentBounds, hitEdge, hitNoGo, hitPartialMap, hitWaypoint, type Rect } from './geometry';
import { History } from './history';
import { edgeTool } from './tools/edge';
import { noGoTool } from './tools/no-go';
import { panTool } from './tools/pan';
import { partialMapTool } from './tools/partial-map';
import { selectTool } from './tools/select';
import { ToolMachine, type ToolContext, type ToolDefinition } from './tools/tool';
import { waypointTool } from './tools/waypoint';
import type { Camera, EditorEvent, EditorNotice, SelectionItem, ToolId, ToolOptions, ToolPreview, Vec } from './types';

/** `model`: document, selection, tool; `camera`: pan and zoom; `pointer`: the cursor's map position. */
export type Channel = 'model' | 'camera' | 'pointer';

const tools: Record<ToolId, ToolDefinition<never>> = {
  select: selectTool,
  waypoint: waypointTool,
  edge: edgeTool,
  noGo: noGoTool,
  partialMap: partialMapTool,
  pan: panTool,
} as unknown as Record<ToolId, ToolDefinition<never>>;

/** Tools a read-only viewer may use. */
const viewerTools: readonly ToolId[] = ['select', 'pan'];
const HIT_PX = 8;

export interface EditorStoreOptions {
  readOnly?: boolean;
  tool?: ToolId;
}

/**
 * The map editor's state outside React: the document with its undo history, the selection, the
 * camera and the active tool's state chart. Components subscribe to a channel; the canvas reads the
 * store when it draws, so panning never re-renders React.
 */
export class EditorStore {
  private _doc: MapDocument;
  private _selection: SelectionItem[] = [];
  private _camera: Camera = { x: -10, y: 10, zoom: 20 };
  private _options: ToolOptions = { waypointType: 1, oneWay: false, speed: 'normal', edgeMode: 'add' };
  private _preview: ToolPreview | null = null;
  private _prompt: 'partialMapName' | null = null;
  private _selectedRouteId: number | null = null;
  private _pointer: Vec | null = null;
  private markedDoc: MapDocument | null = null;
  private readonly history = new History();
  /** The history state last saved (see History.top); -1 when the loaded document was not saved. */
  private savedAt = 0;
  private clipboard: Clipboard | null = null;
  private spaceHeld = false;
  private viewport = { width: 800, height: 600 };
  private tool: ToolMachine;
  /** Middle-button or Space drags pan over any tool without interrupting it. */
  private readonly panOverlay: ToolMachine;
  private readonly listeners: Record<Channel, Set<() => void>> = {
    model: new Set(),
    camera: new Set(),
    pointer: new Set(),
  };
  private readonly noticeListeners = new Set<(n: EditorNotice) => void>();
  private versions: Record<Channel, number> = { model: 0, camera: 0, pointer: 0 };
  /** Every state entered, as `tool.state` (tests assert the path). */
  readonly transitions: string[] = [];
  readonly readOnly: boolean;

  constructor(doc: MapDocument, options: EditorStoreOptions = {}) {
    this._doc = doc;
    this.readOnly = options.readOnly ?? false;
    const ctx = this.toolContext();
    this.tool = new ToolMachine(tools[this.allowed(options.tool ?? 'select')], ctx, this.onTransition);
    this.panOverlay = new ToolMachine(tools.pan, ctx, this.onTransition);
  }

  // ------------------------------------------------------------ reading

  get doc(): MapDocument {
    return this._doc;
  }
  get selection(): readonly SelectionItem[] {
    return this._selection;
  }
  get camera(): Camera {
    return this._camera;
  }
  get options(): ToolOptions {
    return this._options;
  }
  get preview(): ToolPreview | null {
    return this._preview;
  }
  get prompt(): 'partialMapName' | null {
    return this._prompt;
  }
  get toolId(): ToolId {
    return this.tool.id;
  }
  /** `tool.state` of whatever has the pointer (the pan overlay while it pans). */
  get statePath(): string {
    return this.panOverlay.busy ? this.panOverlay.path : this.tool.path;
  }
  get selectedRouteId(): number | null {
    return this._selectedRouteId;
  }
  get pointer(): Vec | null {
    return this._pointer;
  }
  get dirty(): boolean {
    return this.history.top !== this.savedAt;
  }
  get canUndo(): boolean {
    return !this.readOnly && this.history.canUndo;
  }
  get canRedo(): boolean {
    return !this.readOnly && this.history.canRedo;
  }
  get historyLabels(): string[] {
    return this.history.labels;
  }
  version(channel: Channel): number {
    return this.versions[channel];
  }

  subscribe(channel: Channel, listener: () => void): () => void {
    this.listeners[channel].add(listener);
    return () => this.listeners[channel].delete(listener);
  }
  onNotice(listener: (n: EditorNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  // ------------------------------------------------------------ events

  /** One pointer, key or wheel event from the canvas (or a test). */
  send(e: EditorEvent): void {
    if (e.type === 'pointermove' || e.type === 'pointerdown') this.setPointer(e.world);
    if (e.type === 'wheel') {
      this.setCamera(zoomAt(this._camera, e.screen, Math.exp(-(e.deltaY ?? 0) * 0.0015)));
      return;
    }
    if (e.type === 'keyup') {
      if (e.key === ' ') this.spaceHeld = false;
      return;
    }
    if (e.type === 'cancel') {
      this.panOverlay.cancel();
      this.tool.cancel();
      return;
    }
    if (e.type === 'keydown') {
      this.onKey(e);
      return;
    }
    if (this.panOverlay.busy) {
      this.panOverlay.send(e);
      return;
    }
    if (e.type === 'pointerdown' && (e.button === 1 || (this.spaceHeld && this.tool.id !== 'pan'))) {
      this.panOverlay.send(e);
      return;
    }
    this.tool.send(e);
  }

  private onKey(e: EditorEvent): void {
    if (e.key === ' ') {
      this.spaceHeld = true;
      return;
    }
    const key = e.key.toLowerCase();
    if (e.ctrlKey && (key === 'z' || key === 'y')) {
      this.tool.cancel();
      if (key === 'y' || e.shiftKey) this.redo();
      else this.undo();
      return;
    }
    if (e.key === 'Escape') {
      if (this.panOverlay.busy) this.panOverlay.cancel();
      else if (this.tool.busy) this.tool.cancel();
      else this.select([]);
      return;
    }
    // A drawing tool may use Enter and Backspace itself.
    if (this.tool.send(e)) return;
    if (this.tool.busy) return;
    if (e.key === 'Delete' || e.key === 'Backspace') this.deleteSelection();
    else if (e.ctrlKey && key === 'c') this.copy();
    else if (e.ctrlKey && key === 'v') this.paste();
    else if (e.ctrlKey && key === 'a') this.select(this._doc.waypoints.map((w) => ({ kind: 'waypoint', id: w.id })));
  }

  // ------------------------------------------------------------ tools

  setTool(id: ToolId): void {
    const allowed = this.allowed(id);
    if (allowed === this.tool.id) return;
    this.tool.cancel();
    this.tool = new ToolMachine(tools[allowed], this.toolContext(), this.onTransition);
    this.onTransition(this.tool.path);
  }

  setOptions(patch: Partial<ToolOptions>): void {
    this._options = { ...this._options, ...patch };
    this.emit('model');
  }

  /** The text a tool asked for (partial map name). */
  submitPrompt(text: string): void {
    this.tool.submit(text);
  }

  private allowed(id: ToolId): ToolId {
    return this.readOnly && !viewerTools.includes(id) ? 'select' : id;
  }

  private onTransition = (path: string): void => {
    this.transitions.push(path);
    if (path.endsWith('.idle')) {
      this._preview = null;
      this._prompt = null;
    }
    this.emit('model');
  };

  // ------------------------------------------------------------ document edits

  /** Runs a command as one undo step. False when the editor is read-only. */
  run(command: Command): boolean {
    if (this.readOnly) {
      this.notify({ kind: 'readOnly' });
      return false;
    }
    this._doc = command.apply(this._doc);
    this.history.push(command);
    this.pruneSelection();
    this.emit('model');
    return true;
  }

  undo(): void {
    if (this.readOnly) return;
    const doc = this.history.undo(this._doc);
    if (!doc) return;
    this._doc = doc;
    this.pruneSelection();
    this.emit('model');
  }

  redo(): void {
    if (this.readOnly) return;
    const doc = this.history.redo(this._doc);
    if (!doc) return;
    this._doc = doc;
    this.pruneSelection();
    this.emit('model');
  }

  deleteSelection(): void {
    const result = deleteSelection(this._doc, this._selection);
    if (!result) return;
    if (!result.ok) {
      this.notify({ kind: 'inUse', routes: result.routes });
      return;
    }
    if (this.run(result.command)) {
      this._selection = [];
      this.notify({ kind: 'deleted', count: result.count });
      this.emit('model');
    }
  }

  copy(): void {
    const clip = copySelection(this._doc, this._selection);
    if (!clip) return;
    this.clipboard = clip;
    this.notify({ kind: 'copied', count: clip.waypoints.length });
  }

  paste(): void {
    if (!this.clipboard) return;
    const { command, ids } = paste(this._doc, this.clipboard);
    if (this.run(command)) {
      this.select(ids.map((id) => ({ kind: 'waypoint', id })));
      this.notify({ kind: 'pasted', count: ids.length });
    }
  }

  updateWaypoint(id: number, patch: Partial<Omit<Waypoint, 'id'>>): void {
    this.updateOne('waypoints', id, patch);
  }
  updateEdge(id: number, patch: Partial<Omit<MapEdge, 'id'>>): void {
    this.updateOne('edges', id, patch);
  }
  updatePartialMap(id: number, patch: Partial<Omit<PartialMap, 'id'>>): void {
    this.updateOne('partialMaps', id, patch);
  }
  updateNoGoArea(id: number, patch: Partial<Omit<NoGoArea, 'id'>>): void {
    this.updateOne('noGoAreas', id, patch);
  }

  private updateOne<K extends 'waypoints' | 'edges' | 'partialMaps' | 'noGoAreas'>(
    key: K,
    id: number,
    patch: Partial<MapDocument[K][number]>,
  ): void {
    const before = (this._doc[key] as Array<MapDocument[K][number]>).find((i) => i.id === id);
    if (!before) return;
    this.run(updateItem(key, before, { ...before, ...patch } as MapDocument[K][number], `update ${key}`));
  }

  /** Deletes one item of a list in the side panel (a waypoint still used by a route is refused). */
  removeItem(kind: 'route' | SelectionItem['kind'], id: number): void {
    if (kind === 'route') {
      if (this.run(removeItems(this._doc, 'routes', new Set([id])))) {
        if (this._selectedRouteId === id) this._selectedRouteId = null;
        this.notify({ kind: 'deleted', count: 1 });
      }
      return;
    }
    this._selection = [{ kind, id }];
    this.deleteSelection();
  }

  /** A route through the selected waypoints in click order; its id, or null when fewer than two. */
  createRouteFromSelection(name: string): number | null {
    const made = routeFromSelection(this._doc, this._selection, name);
    if (!made || !this.run(made.command)) return null;
    this.selectRoute(made.route.id);
    return made.route.id;
  }

  updateRouteName(id: number, name: string): void {
    const before = this._doc.routes.find((r) => r.id === id);
    if (before && name.trim()) this.run(updateItem('routes', before, { ...before, name: name.trim() }));
  }

  /** A new document (loaded, reloaded, restored): history and selection start over. */
  load(doc: MapDocument, options: { dirty?: boolean } = {}): void {
    this.tool.cancel();
    this._doc = doc;
    this.markedDoc = null;
    this.history.clear();
    this._selection = [];
    this._selectedRouteId = null;
    this.savedAt = options.dirty ? -1 : 0;
    this.emit('model');
  }

  /** The current document is what the server has now. */
  markSaved(): void {
    this.savedAt = this.history.top;
    this.emit('model');
  }

  // ------------------------------------------------------------ selection

  select(items: readonly SelectionItem[]): void {
    this._selection = [...items];
    this.emit('model');
  }

  selectRoute(id: number | null): void {
    this._selectedRouteId = id;
    this.emit('model');
  }

  private pruneSelection(): void {
    const exists = (s: SelectionItem) => {
      const list =
        s.kind === 'waypoint'
          ? this._doc.waypoints
          : s.kind === 'edge'
            ? this._doc.edges
            : s.kind === 'noGo'
              ? this._doc.noGoAreas
              : this._doc.partialMaps;
      return list.some((i) => i.id === s.id);
    };
    if (this._selection.some((s) => !exists(s))) this._selection = this._selection.filter(exists);
    if (this._selectedRouteId !== null && !this._doc.routes.some((r) => r.id === this._selectedRouteId))
      this._selectedRouteId = null;
  }

  // ------------------------------------------------------------ camera

  setViewport(width: number, height: number): void {
    this.viewport = { width, height };
  }
  getViewport(): { width: number; height: number } {
    return this.viewport;
  }

  setCamera(camera: Camera): void {
    this._camera = camera;
    this.emit('camera');
  }

  zoomBy(factor: number, screen: Vec = { x: this.viewport.width / 2, y: this.viewport.height / 2 }): void {
    this.setCamera(zoomAt(this._camera, screen, factor));
  }

  /** Shows the map image (or, without one, everything in the document; else 20 m around the origin). */
  fit(image: MapImage | null): void {
    const bounds: Rect = (image && imageBounds(image)) ??
      documentBounds(this._doc) ?? { x: -10, y: -10, width: 20, height: 20 };
    this.setCamera(fitCamera(bounds, this.viewport));
  }

  /** Centres the view on a point at a readable zoom. */
  centerOn(p: Vec, zoom = Math.max(this._camera.zoom, 40)): void {
    this.setCamera({ zoom, x: p.x - this.viewport.width / 2 / zoom, y: p.y + this.viewport.height / 2 / zoom });
  }

  toWorld(screen: Vec): Vec {
    return screenToWorld(this._camera, screen);
  }

  /** The cursor left the map. */
  clearPointer(): void {
    this._pointer = null;
    this.emit('pointer');
  }

  private setPointer(p: Vec): void {
    this._pointer = p;
    this.emit('pointer');
  }

  // ------------------------------------------------------------ plumbing

  private emit(channel: Channel): void {
    this.versions[channel]++;
    for (const l of this.listeners[channel]) l();
  }

  private notify(n: EditorNotice): void {
    for (const l of this.noticeListeners) l(n);
  }

  private toolContext(): ToolContext {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the context is a view of this store
    const store = this;
    const tolerance = (px = HIT_PX) => px / store._camera.zoom;
    return {
      get doc() {
        return store._doc;
      },
      get selection() {
        return store._selection;
      },
      get camera() {
        return store._camera;
      },
      get options() {
        return store._options;
      },
      get readOnly() {
        return store.readOnly;
      },
      get marked() {
        return store.markedDoc ?? store._doc;
      },
      tolerance,
      hitWaypoint: (p) => hitWaypoint(store._doc, p, tolerance()),
      hitEdge: (p) => hitEdge(store._doc, p, tolerance()),
      hitItem: (p) => {
        const doc = store._doc;
        const w = hitWaypoint(doc, p, tolerance());
        if (w) return { kind: 'waypoint', id: w.id };
        const e = hitEdge(doc, p, tolerance(6));
        if (e) return { kind: 'edge', id: e.id };
        const a = hitNoGo(doc, p);
        if (a) return { kind: 'noGo', id: a.id };
        const r = hitPartialMap(doc, p);
        return r ? { kind: 'partialMap', id: r.id } : null;
      },
      select: (items) => store.select(items),
      mark: () => {
        store.markedDoc = store._doc;
      },
      transient: (doc) => {
        store._doc = doc;
        store.emit('model');
      },
      commit: (command) => {
        const base = store.markedDoc;
        if (base) store._doc = base;
        store.markedDoc = null;
        const ok = store.run(command);
        if (!ok) store.emit('model');
        return ok;
      },
      bail: () => {
        if (store.markedDoc) store._doc = store.markedDoc;
        store.markedDoc = null;
        store.emit('model');
      },
      setPreview: (p) => {
        store._preview = p;
        store.emit('model');
      },
      setCamera: (c) => store.setCamera(c),
      notice: (n) => store.notify(n),
      prompt: (kind) => {
        store._prompt = kind;
        store.emit('model');
      },
    };
  }
}
