import type { MapImage } from '@portal/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { mapWarnings, type MapWarning, type Occupancy } from '../model/occupancy';
import type { EditorStore } from '../model/store';
import { loadOccupancy } from './occupancy-loader';

/** After an edit, warnings wait this long for the next one (a drag is many edits). */
const SETTLE_MS = 250;
const NONE: MapWarning[] = [];

const keyOf = (w: MapWarning) =>
  w.kind === 'waypointOnObstacle' ? `w${w.waypointId}:${w.at.x},${w.at.y}` : `e${w.edgeId}:${w.at.x},${w.at.y}`;

/**
 * The editor's warnings against the map image (model/occupancy.ts), one source per editor store so
 * the canvas and the side panel share one image read and one computation, done once edits settle.
 */
class WarningSource {
  private key: string | null = null;
  private occupancy: Occupancy | null = null;
  private warnings: MapWarning[] = NONE;
  private readonly listeners = new Set<() => void>();
  private offModel: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: EditorStore) {}

  /** The floor's image (its signed URL changes; the file, the part before `?`, is what counts). */
  setImage(image: MapImage | null): void {
    const key = image?.url ? image.url.split('?')[0]! : null;
    if (key === this.key) return;
    this.key = key;
    this.occupancy = null;
    this.recompute();
    if (!image || key === null) return;
    void loadOccupancy(image).then((o) => {
      if (this.key !== key) return;
      this.occupancy = o;
      this.recompute();
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.offModel ??= this.store.subscribe('model', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.recompute(), SETTLE_MS);
    });
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.offModel?.();
      this.offModel = null;
      clearTimeout(this.timer);
    };
  };

  get = (): MapWarning[] => this.warnings;

  private recompute(): void {
    const next = this.occupancy ? mapWarnings(this.store.doc, this.occupancy) : NONE;
    const same = next.length === this.warnings.length && next.every((w, i) => keyOf(w) === keyOf(this.warnings[i]!));
    if (same) return;
    this.warnings = next;
    this.listeners.forEach((l) => l());
  }
}

const sources = new WeakMap<EditorStore, WarningSource>();

/** The warnings of the store's document against the image, kept up to date. */
export function useMapWarnings(store: EditorStore, image: MapImage | null): MapWarning[] {
  let source = sources.get(store);
  if (!source) {
    source = new WarningSource(store);
    sources.set(store, source);
  }
  const s = source;
  useEffect(() => s.setImage(image), [s, image]);
  return useSyncExternalStore(s.subscribe, s.get);
}
