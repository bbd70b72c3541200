import { emptyMapDocument } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { driver, sampleDoc } from './test-kit';
import type { EditorNotice } from './types';

const notices = (d: ReturnType<typeof driver>) => {
  const seen: EditorNotice[] = [];
  d.store.onNotice((n) => seen.push(n));
  return seen;
};

describe('select tool', () => {
  it('selects on click, clears on empty click: idle → pointingItem → idle → pointingCanvas → idle', () => {
    const d = driver(sampleDoc());
    d.click(5, 0);
    expect(d.store.selection).toEqual([{ kind: 'waypoint', id: 2 }]);
    d.click(3, 7);
    expect(d.store.selection).toEqual([]);
    expect(d.path()).toEqual(['select.pointingItem', 'select.idle', 'select.pointingCanvas', 'select.idle']);
  });

  it('shift-click adds and toggles, keeping click order', () => {
    const d = driver(sampleDoc());
    d.click(10, 0);
    d.click(0, 0, { shiftKey: true });
    expect(d.store.selection.map((s) => s.id)).toEqual([3, 1]);
    d.click(10, 0, { shiftKey: true });
    expect(d.store.selection.map((s) => s.id)).toEqual([1]);
  });

  it('drags the selected waypoints as one undo step: pointingItem → dragging → idle', () => {
    const d = driver(sampleDoc());
    const seen = notices(d);
    d.click(0, 0);
    d.click(5, 0, { shiftKey: true });
    d.path();
    d.drag([5, 0], [6, 2]);
    expect(d.path()).toEqual(['select.pointingItem', 'select.dragging', 'select.idle']);
    expect(d.store.doc.waypoints.map((w) => [w.x, w.y])).toEqual([
      [1, 2],
      [6, 2],
      [10, 0],
    ]);
    expect(seen).toEqual([{ kind: 'moved', count: 2 }]);
    expect(d.store.historyLabels).toEqual(['move 2 waypoints']);
    d.store.undo();
    expect(d.store.doc.waypoints.map((w) => [w.x, w.y])).toEqual([
      [0, 0],
      [5, 0],
      [10, 0],
    ]);
    expect(d.store.dirty).toBe(false);
    d.store.redo();
    expect(d.store.doc.waypoints[0]).toMatchObject({ x: 1, y: 2 });
  });

  it('Escape mid-drag puts the waypoints back and records nothing', () => {
    const d = driver(sampleDoc());
    d.down(5, 0);
    d.move(7, 3);
    d.move(8, 3);
    expect(d.store.doc.waypoints[1]).toMatchObject({ x: 8, y: 3 });
    d.key('Escape');
    expect(d.path()).toEqual(['select.pointingItem', 'select.dragging', 'select.idle']);
    expect(d.store.doc.waypoints[1]).toMatchObject({ x: 5, y: 0 });
    expect(d.store.canUndo).toBe(false);
    d.up(8, 3);
    expect(d.store.statePath).toBe('select.idle');
  });

  it('rubber-band selects the waypoints inside: pointingCanvas → brushing → idle', () => {
    const d = driver(sampleDoc());
    d.drag([-1, -1], [6, 1]);
    expect(d.path()).toEqual(['select.pointingCanvas', 'select.brushing', 'select.idle']);
    expect(d.store.selection.map((s) => s.id)).toEqual([1, 2]);
    expect(d.store.preview).toBeNull();
  });

  it('selects an edge by clicking on it', () => {
    const d = driver(sampleDoc());
    d.click(2.5, 0.1);
    expect(d.store.selection).toEqual([{ kind: 'edge', id: 1 }]);
  });

  it('hit testing scales with zoom', () => {
    const d = driver(sampleDoc());
    d.click(-0.5, 0); // 10 px away at 20 px/m: a miss
    expect(d.store.selection).toEqual([]);
    d.store.setCamera({ x: -1, y: 1, zoom: 10 });
    d.click(-0.5, 0); // 5 px away at 10 px/m: a hit
    expect(d.store.selection).toEqual([{ kind: 'waypoint', id: 1 }]);
  });

  it('read-only: selects but does not drag', () => {
    const d = driver(sampleDoc(), { readOnly: true });
    d.drag([5, 0], [7, 0]);
    expect(d.path()).toEqual(['select.pointingItem', 'select.idle']);
    expect(d.store.doc.waypoints[1]).toMatchObject({ x: 5 });
    d.store.setTool('waypoint');
    expect(d.store.toolId).toBe('select');
  });
});

describe('waypoint tool', () => {
  it('click places a waypoint of the chosen type with id max+1 and a default name', () => {
    const d = driver(sampleDoc());
    d.store.setTool('waypoint');
    d.store.setOptions({ waypointType: 2 });
    d.path();
    d.click(3, 4);
    expect(d.path()).toEqual(['waypoint.aiming', 'waypoint.idle']);
    expect(d.store.doc.waypoints.at(-1)).toEqual({ id: 4, name: 'Charge 4', x: 3, y: 4, theta: 0, type: 2 });
    expect(d.store.selection).toEqual([{ kind: 'waypoint', id: 4 }]);
    d.store.undo();
    expect(d.store.doc.waypoints).toHaveLength(3);
    d.store.redo();
    expect(d.store.doc.waypoints).toHaveLength(4);
  });

  it('dragging from the click point sets the direction', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('waypoint');
    d.drag([0, 0], [0, 2]);
    const w = d.store.doc.waypoints[0]!;
    expect(w.name).toBe('WP 1');
    expect(w.theta).toBeCloseTo(Math.PI / 2, 3);
  });

  it('Escape while aiming places nothing', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('waypoint');
    d.down(1, 1);
    expect(d.store.doc.waypoints).toHaveLength(1);
    d.key('Escape');
    expect(d.store.doc.waypoints).toHaveLength(0);
    expect(d.store.statePath).toBe('waypoint.idle');
    expect(d.store.canUndo).toBe(false);
  });
});

describe('edge tool', () => {
  it('click, click connects two waypoints with the tool options: idle → connecting → idle', () => {
    const d = driver(sampleDoc());
    d.store.setTool('edge');
    d.store.setOptions({ oneWay: true, speed: 'slow' });
    d.path();
    d.click(5, 0);
    expect(d.store.preview).toMatchObject({ kind: 'edge' });
    d.move(9, 0);
    d.click(10, 0);
    expect(d.path()).toEqual(['edge.connecting', 'edge.idle']);
    expect(d.store.doc.edges.at(-1)).toEqual({ id: 2, from: 2, to: 3, oneWay: true, speed: 'slow', path: null });
    expect(d.store.preview).toBeNull();
    d.store.undo();
    expect(d.store.doc.edges).toHaveLength(1);
  });

  it('drag from one waypoint to another also connects them', () => {
    const d = driver(sampleDoc());
    d.store.setTool('edge');
    d.drag([0, 0], [10, 0]);
    expect(d.store.doc.edges.at(-1)).toMatchObject({ from: 1, to: 3, oneWay: false });
  });

  it('refuses a second edge between the same waypoints', () => {
    const d = driver(sampleDoc());
    const seen = notices(d);
    d.store.setTool('edge');
    d.click(5, 0);
    d.click(0, 0);
    expect(d.store.doc.edges).toHaveLength(1);
    expect(seen).toEqual([{ kind: 'edgeExists' }]);
  });

  it('Escape or a click on empty map gives up', () => {
    const d = driver(sampleDoc());
    d.store.setTool('edge');
    d.path();
    d.click(0, 0);
    d.key('Escape');
    d.click(0, 0);
    d.click(3, 6);
    expect(d.path()).toEqual(['edge.connecting', 'edge.idle', 'edge.connecting', 'edge.idle']);
    expect(d.store.doc.edges).toHaveLength(1);
  });

  it('delete mode removes the clicked edge (undoable)', () => {
    const d = driver(sampleDoc());
    d.store.setTool('edge');
    d.store.setOptions({ edgeMode: 'delete' });
    d.click(2.5, 0);
    expect(d.store.doc.edges).toEqual([]);
    d.store.undo();
    expect(d.store.doc.edges).toHaveLength(1);
  });
});

describe('no-go tool', () => {
  it('clicks add corners, double-click closes: idle → drawing → idle', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('noGo');
    d.path();
    d.click(0, 0);
    d.click(4, 0);
    d.click(4, 3);
    d.click(4, 3); // the second press of a double-click
    d.dblclick(4, 3);
    expect(d.path()).toEqual(['noGo.drawing', 'noGo.idle']);
    expect(d.store.doc.noGoAreas).toEqual([
      {
        id: 1,
        name: '',
        points: [
          { x: 0, y: 0 },
          { x: 4, y: 0 },
          { x: 4, y: 3 },
        ],
      },
    ]);
    d.store.undo();
    expect(d.store.doc.noGoAreas).toEqual([]);
  });

  it('Enter with fewer than three corners is refused; Backspace removes the last corner', () => {
    const d = driver(emptyMapDocument());
    const seen = notices(d);
    d.store.setTool('noGo');
    d.click(0, 0);
    d.click(4, 0);
    d.key('Enter');
    expect(seen).toEqual([{ kind: 'polygonTooSmall' }]);
    expect(d.store.statePath).toBe('noGo.drawing');
    d.key('Backspace');
    expect(d.store.preview).toMatchObject({ points: [{ x: 0, y: 0 }] });
    d.click(0, 5);
    d.click(3, 5);
    d.key('Enter');
    expect(d.store.doc.noGoAreas[0]!.points).toHaveLength(3);
  });

  it('a click on the first corner closes; Escape drops the drawing', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('noGo');
    d.click(0, 0);
    d.click(4, 0);
    d.click(4, 3);
    d.click(0.1, 0);
    expect(d.store.doc.noGoAreas).toHaveLength(1);
    d.click(10, 10);
    d.click(12, 10);
    d.key('Escape');
    expect(d.store.statePath).toBe('noGo.idle');
    expect(d.store.preview).toBeNull();
    expect(d.store.doc.noGoAreas).toHaveLength(1);
  });
});

describe('partial map tool', () => {
  it('drag a rectangle, then name it: idle → dragging → naming → idle', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('partialMap');
    d.path();
    d.drag([1, 5], [6, 2]);
    expect(d.store.prompt).toBe('partialMapName');
    d.store.submitPrompt('  East wing ');
    expect(d.path()).toEqual(['partialMap.dragging', 'partialMap.naming', 'partialMap.idle']);
    expect(d.store.doc.partialMaps).toEqual([{ id: 1, name: 'East wing', x: 1, y: 2, width: 5, height: 3 }]);
    expect(d.store.prompt).toBeNull();
    d.store.undo();
    expect(d.store.doc.partialMaps).toEqual([]);
  });

  it('Escape while naming drops the rectangle; a tiny drag is ignored', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('partialMap');
    d.drag([1, 5], [6, 2]);
    d.key('Escape');
    expect(d.store.prompt).toBeNull();
    d.drag([1, 1], [1.05, 1.05]);
    expect(d.store.statePath).toBe('partialMap.idle');
    expect(d.store.doc.partialMaps).toEqual([]);
  });
});

describe('pan', () => {
  it('the pan tool drags the camera: idle → panning → idle', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('pan');
    d.path();
    const before = d.store.camera;
    d.store.send({
      type: 'pointerdown',
      world: { x: 0, y: 0 },
      screen: { x: 100, y: 100 },
      button: 0,
      shiftKey: false,
      key: '',
    });
    d.store.send({
      type: 'pointermove',
      world: { x: 0, y: 0 },
      screen: { x: 140, y: 80 },
      button: 0,
      shiftKey: false,
      key: '',
    });
    d.store.send({
      type: 'pointerup',
      world: { x: 0, y: 0 },
      screen: { x: 140, y: 80 },
      button: 0,
      shiftKey: false,
      key: '',
    });
    expect(d.path()).toEqual(['pan.panning', 'pan.idle']);
    expect(d.store.camera.x).toBeCloseTo(before.x - 2);
    expect(d.store.camera.y).toBeCloseTo(before.y - 1);
  });

  it('middle button and Space+drag pan over another tool without interrupting it', () => {
    const d = driver(emptyMapDocument());
    d.store.setTool('noGo');
    d.click(0, 0);
    d.path();
    d.down(0, 0, { button: 1 });
    d.move(1, 1, { button: 1 });
    d.up(1, 1, { button: 1 });
    expect(d.path()).toEqual(['pan.panning', 'pan.idle']);
    expect(d.store.statePath).toBe('noGo.drawing');
    d.key(' ');
    d.down(0, 0);
    expect(d.store.statePath).toBe('pan.panning');
    d.up(0, 0);
    d.store.send({
      type: 'keyup',
      world: { x: 0, y: 0 },
      screen: { x: 0, y: 0 },
      button: 0,
      shiftKey: false,
      key: ' ',
    });
    d.click(3, 0);
    expect(d.store.preview).toMatchObject({
      points: [
        { x: 0, y: 0 },
        { x: 3, y: 0 },
      ],
    });
  });

  it('wheel zooms around the cursor', () => {
    const d = driver(emptyMapDocument());
    d.store.send({
      type: 'wheel',
      world: { x: 0, y: 0 },
      screen: { x: 200, y: 200 },
      button: 0,
      shiftKey: false,
      key: '',
      deltaY: -200,
    });
    expect(d.store.camera.zoom).toBeGreaterThan(20);
    expect(d.store.toWorld({ x: 200, y: 200 }).x).toBeCloseTo(0);
    expect(d.store.toWorld({ x: 200, y: 200 }).y).toBeCloseTo(0);
  });
});
