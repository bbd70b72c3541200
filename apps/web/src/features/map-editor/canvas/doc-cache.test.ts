import { emptyMapDocument, type MapDocument } from '@portal/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocumentCache } from './doc-cache';
import type { DrawView } from './draw';

/** jsdom has no 2D canvas: a context that only records what the cache does with it. */
function fakeContext() {
  return { setTransform: vi.fn(), clearRect: vi.fn(), drawImage: vi.fn() };
}

const doc = (size: number): MapDocument => ({
  ...emptyMapDocument(),
  waypoints: [
    { id: 1, name: 'A', x: 0, y: 0, theta: 0, type: 1 },
    { id: 2, name: 'B', x: size, y: size, theta: 0, type: 1 },
  ],
});
const view = (zoom: number): DrawView => ({ camera: { x: 0, y: 0, zoom }, viewport: { width: 800, height: 600 } });

describe('DocumentCache', () => {
  let offscreen: ReturnType<typeof fakeContext>;
  beforeEach(() => {
    vi.useFakeTimers();
    offscreen = fakeContext();
    const real = document.createElement.bind(document);
    vi.spyOn(document, 'createElement').mockImplementation((tag: string) => {
      const el = real(tag);
      if (tag === 'canvas') (el as HTMLCanvasElement).getContext = (() => offscreen) as never;
      return el;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('draws the document once, then only copies the bitmap while panning', () => {
    const settled = vi.fn();
    const cache = new DocumentCache(settled);
    const render = vi.fn();
    const screen = fakeContext();
    const d = doc(100);
    expect(cache.draw(screen as never, view(4), [d, '', null], render)).toBe(true);
    expect(cache.draw(screen as never, { ...view(4), camera: { x: 30, y: -20, zoom: 4 } }, [d, '', null], render)).toBe(
      true,
    );
    expect(render).toHaveBeenCalledTimes(1);
    expect(screen.drawImage).toHaveBeenCalledTimes(2);
  });

  it('draws again when the document or the selection changes', () => {
    const cache = new DocumentCache(() => undefined);
    const render = vi.fn();
    const screen = fakeContext();
    const d = doc(100);
    cache.draw(screen as never, view(4), [d, '', null], render);
    cache.draw(screen as never, view(4), [d, 'waypoint:1', null], render);
    cache.draw(screen as never, view(4), [doc(100), 'waypoint:1', null], render);
    expect(render).toHaveBeenCalledTimes(3);
  });

  it('shows the scaled bitmap while zooming and redraws once the zoom settles', () => {
    const settled = vi.fn();
    const cache = new DocumentCache(settled);
    const render = vi.fn();
    const screen = fakeContext();
    const d = doc(100);
    cache.draw(screen as never, view(4), [d, '', null], render);
    cache.draw(screen as never, view(5), [d, '', null], render);
    cache.draw(screen as never, view(6), [d, '', null], render);
    expect(render).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(200);
    expect(settled).toHaveBeenCalledTimes(1);
    cache.draw(screen as never, view(6), [d, '', null], render);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('steps aside when the whole document would not fit in one bitmap (zoomed in)', () => {
    const cache = new DocumentCache(() => undefined);
    const render = vi.fn();
    expect(cache.draw(fakeContext() as never, view(100), [doc(100), '', null], render)).toBe(false);
    expect(render).not.toHaveBeenCalled();
  });
});
