/**
 * Prints the start-position scores of docs/api-schedules.md "Start position": the simulator's v1 view
 * (1280×720, as its takePhoto renders it) at a reference pose against views under other lighting, a
 * few cm / degrees off, and at other places of the demo world.
 * `npx tsx apps/server/test/start-position-scores.ts [mapId] [x,y,degrees]` (default floor-1 3,1,0).
 */
import { worldFor } from '@portal/robot-sim';
import { encodePng, FrameRenderer } from '@portal/robot-sim/video';
import { pngToGrayGrid, compareGrids } from '../src/modules/schedules/start-position.ts';
const W = 1280,
  H = 720;
const r = new FrameRenderer(W, H);
const world = worldFor(process.argv[2] ?? 'floor-1');
const shot = (x: number, y: number, deg: number, now = Date.now(), light?: (v: number) => number) => {
  const rgba = r.renderRgba({
    camera: 'v1',
    pose: { x, y, theta: (deg * Math.PI) / 180 },
    world,
    gimbal: { pan: 0, tilt: 0 },
    eyeHeight: 1.2,
    thermal: { colorMap: 'normal', rangeMin: 10, rangeMax: 40 },
    robotName: 'sim',
    now,
  });
  if (light)
    for (let i = 0; i < rgba.length; i++)
      if (i % 4 !== 3) rgba[i] = Math.max(0, Math.min(255, Math.round(light(rgba[i]!))));
  return encodePng(W, H, rgba);
};
const [bx, by, bt] = (process.argv[3] ?? '3,1,0').split(',').map(Number) as [number, number, number];
const ref = shot(bx, by, bt, Date.now() - 3 * 3600e3);
const cases: Array<[string, Buffer]> = [
  ['same pose, later', shot(bx, by, bt)],
  ['darker x0.6', shot(bx, by, bt, Date.now(), (v) => v * 0.6)],
  ['brighter x1.3+20', shot(bx, by, bt, Date.now(), (v) => v * 1.3 + 20)],
  ['low contrast', shot(bx, by, bt, Date.now(), (v) => 128 + (v - 128) * 0.6)],
  ['gamma 0.7', shot(bx, by, bt, Date.now(), (v) => 255 * (v / 255) ** 0.7)],
  ['+5cm x', shot(bx + 0.05, by, bt)],
  ['+5cm y', shot(bx, by + 0.05, bt)],
  ['-10cm x', shot(bx - 0.1, by, bt)],
  ['+10cm y', shot(bx, by + 0.1, bt)],
  ['+3deg', shot(bx, by, bt + 3)],
  ['-5deg', shot(bx, by, bt - 5)],
  ['+5cm +3deg dark', shot(bx + 0.05, by + 0.05, bt + 3, Date.now(), (v) => v * 0.7)],
  ['+10deg', shot(bx, by, bt + 10)],
  ['+30cm x', shot(bx + 0.3, by, bt)],
  ['+1m x', shot(bx + 1, by, bt)],
  ['turned 90', shot(bx, by, bt + 90)],
  ['turned 180', shot(bx, by, bt + 180)],
  ['(6,3,0)', shot(6, 3, 0)],
  ['(8,2,180)', shot(8, 2, 180)],
  ['(12,6,90)', shot(12, 6, 90)],
  ['(5,5,-90)', shot(5, 5, -90)],
  ['(10,2,0)', shot(10, 2, 0)],
  ['(3,3,0)', shot(3, 3, 0)],
  ['(4,1,0)', shot(4, 1, 0)],
];
const refG = pngToGrayGrid(ref);
for (const [name, p] of cases) {
  const t0 = performance.now();
  const g = pngToGrayGrid(p);
  const t1 = performance.now();
  const sc = compareGrids(refG, g);
  console.log(
    name.padEnd(20),
    sc.score.toFixed(3),
    `(${sc.dx},${sc.dy})`,
    `decode ${Math.round(t1 - t0)} ms, compare ${(performance.now() - t1).toFixed(1)} ms`,
  );
}
