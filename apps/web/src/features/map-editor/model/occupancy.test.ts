import { emptyMapDocument, type MapDocument } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { mapWarnings, occupancyFromRgba, occupiedAt, pixelAt, segmentObstacle, type Occupancy } from './occupancy';

/**
 * A 10 × 10 px image at 0.1 m/px with its bottom-left pixel at (−0.5, 0): x −0.5…0.5 m, y 0…1 m.
 * `walls` lists occupied pixels as [column, row from the top].
 */
function grid(walls: Array<[number, number]>): Occupancy {
  const occupied = new Uint8Array(100);
  for (const [c, r] of walls) occupied[r * 10 + c] = 1;
  return { width: 10, height: 10, resolution: 0.1, originX: -0.5, originY: 0, occupied };
}
/** A vertical wall in column 5 (x 0…0.1 m), all rows. */
const wall = grid(Array.from({ length: 10 }, (_, r) => [5, r] as [number, number]));

describe('occupancy of a map image', () => {
  it('reads dark, opaque pixels as occupied; white, ROS unknown grey and transparent as free', () => {
    const px = (r: number, g: number, b: number, a = 255) => [r, g, b, a];
    const rgba = new Uint8ClampedArray([
      ...px(0, 0, 0), // black: occupied
      ...px(255, 255, 255), // white: free
      ...px(205, 205, 205), // unknown grey: free
      ...px(0, 0, 0, 0), // transparent: free
      ...px(60, 60, 60), // dark grey: occupied
      ...px(200, 0, 0), // red, luminance 60: occupied
    ]);
    const o = occupancyFromRgba(rgba, { width: 3, height: 2, resolution: 1, originX: 0, originY: 0 });
    expect([...o.occupied]).toEqual([1, 0, 0, 0, 1, 1]);
  });

  it('finds the pixel under a map point: the image’s top row is the map’s highest y', () => {
    expect(pixelAt(wall, { x: -0.45, y: 0.05 })).toEqual({ col: 0, row: 9 });
    expect(pixelAt(wall, { x: 0.45, y: 0.95 })).toEqual({ col: 9, row: 0 });
    expect(pixelAt(wall, { x: 0.05, y: 0.5 })).toEqual({ col: 5, row: 4 });
    expect(pixelAt(wall, { x: 0.6, y: 0.5 })).toBeNull();
    expect(pixelAt(wall, { x: 0, y: -0.01 })).toBeNull();
    expect(occupiedAt(wall, { x: 0.05, y: 0.5 })).toBe(true);
    expect(occupiedAt(wall, { x: -0.05, y: 0.5 })).toBe(false);
    expect(occupiedAt(wall, { x: 3, y: 3 })).toBe(false);
  });

  it('samples a segment pixel by pixel: a thin wall across it is found, one beside it is not', () => {
    const hit = segmentObstacle(wall, { x: -0.4, y: 0.5 }, { x: 0.4, y: 0.5 });
    expect(hit).not.toBeNull();
    expect(hit!.x).toBeGreaterThanOrEqual(0);
    expect(hit!.x).toBeLessThan(0.1);
    // Parallel to the wall, one pixel away.
    expect(segmentObstacle(wall, { x: -0.05, y: 0.05 }, { x: -0.05, y: 0.95 })).toBeNull();
    // A one-pixel wall crossed diagonally is still found (half-pixel steps).
    const dot = grid([[3, 3]]);
    expect(segmentObstacle(dot, { x: -0.45, y: 0.95 }, { x: 0.45, y: 0.05 })).not.toBeNull();
    // The pixels under the ends are left out (the waypoint's own warning), unless asked for.
    const start = grid([[0, 9]]);
    expect(segmentObstacle(start, { x: -0.45, y: 0.05 }, { x: 0.45, y: 0.05 })).toBeNull();
    expect(segmentObstacle(start, { x: -0.45, y: 0.05 }, { x: 0.45, y: 0.05 }, { start: false, end: true })).toEqual({
      x: -0.45,
      y: 0.05,
    });
  });

  it('warns of waypoints on obstacles and edges through them, straight or recorded', () => {
    const doc: MapDocument = {
      ...emptyMapDocument(),
      waypoints: [
        { id: 1, name: 'West', x: -0.3, y: 0.5, theta: 0, type: 1 },
        { id: 2, name: 'East', x: 0.3, y: 0.5, theta: 0, type: 1 },
        { id: 3, name: 'In the wall', x: 0.05, y: 0.2, theta: 0, type: 1 },
        { id: 4, name: 'West 2', x: -0.3, y: 0.9, theta: 0, type: 1 },
      ],
      edges: [
        { id: 1, from: 1, to: 2, oneWay: false, speed: 'normal', path: null },
        { id: 2, from: 1, to: 4, oneWay: false, speed: 'normal', path: null },
        // Recorded around the wall's end? No: through it, in its second segment.
        {
          id: 3,
          from: 4,
          to: 2,
          oneWay: false,
          speed: 'normal',
          path: [
            { x: -0.3, y: 0.9 },
            { x: -0.2, y: 0.9 },
            { x: 0.3, y: 0.5 },
          ],
        },
      ],
    };
    const warnings = mapWarnings(doc, wall);
    expect(warnings.map((w) => (w.kind === 'waypointOnObstacle' ? `w${w.waypointId}` : `e${w.edgeId}`))).toEqual([
      'w3',
      'e1',
      'e3',
    ]);
    // No wall, no warning.
    expect(mapWarnings(doc, grid([]))).toEqual([]);
  });
});
