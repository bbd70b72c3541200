import { describe, expect, it } from 'vitest';
import { driver, sampleDoc } from './test-kit';
import type { EditorNotice } from './types';

describe('editor store', () => {
  it('Delete removes selected waypoints with their edges; undo restores them in place', () => {
    const d = driver(sampleDoc());
    const seen: EditorNotice[] = [];
    d.store.onNotice((n) => seen.push(n));
    d.click(0, 0);
    d.key('Delete');
    expect(d.store.doc.waypoints.map((w) => w.id)).toEqual([2, 3]);
    expect(d.store.doc.edges).toEqual([]);
    expect(d.store.selection).toEqual([]);
    expect(seen).toEqual([{ kind: 'deleted', count: 1 }]);
    d.key('z', { ctrlKey: true });
    expect(d.store.doc.waypoints.map((w) => w.id)).toEqual([1, 2, 3]);
    expect(d.store.doc.edges).toHaveLength(1);
    d.key('z', { ctrlKey: true, shiftKey: true });
    expect(d.store.doc.waypoints.map((w) => w.id)).toEqual([2, 3]);
    d.key('z', { ctrlKey: true });
    d.key('y', { ctrlKey: true });
    expect(d.store.doc.waypoints.map((w) => w.id)).toEqual([2, 3]);
  });

  it('refuses to delete a waypoint a route uses, naming the route', () => {
    const d = driver(sampleDoc());
    const seen: EditorNotice[] = [];
    d.store.onNotice((n) => seen.push(n));
    d.click(5, 0);
    d.key('Backspace');
    expect(seen).toEqual([{ kind: 'inUse', routes: ['Lobby loop'] }]);
    expect(d.store.doc.waypoints).toHaveLength(3);
    expect(d.store.canUndo).toBe(false);
  });

  it('deletes an edge, a no-go area and a partial map (each undoable)', () => {
    const doc = {
      ...sampleDoc(),
      noGoAreas: [
        {
          id: 1,
          name: 'Stairs',
          points: [
            { x: 20, y: 0 },
            { x: 24, y: 0 },
            { x: 22, y: 4 },
          ],
        },
      ],
      partialMaps: [{ id: 1, name: 'Hall', x: 30, y: 0, width: 5, height: 5 }],
    };
    const d = driver(doc);
    d.click(2.5, 0);
    d.key('Delete');
    expect(d.store.doc.edges).toEqual([]);
    d.click(22, 1);
    expect(d.store.selection).toEqual([{ kind: 'noGo', id: 1 }]);
    d.key('Delete');
    d.click(32, 2);
    d.key('Delete');
    expect(d.store.doc.noGoAreas).toEqual([]);
    expect(d.store.doc.partialMaps).toEqual([]);
    d.store.undo();
    d.store.undo();
    d.store.undo();
    expect(d.store.doc).toEqual(doc);
    expect(d.store.dirty).toBe(false);
  });

  it('property edits, routes and renames undo and redo', () => {
    const d = driver(sampleDoc());
    d.store.updateWaypoint(1, { name: 'Entrance', theta: 1 });
    d.store.updateEdge(1, { oneWay: true, speed: 'slow' });
    d.click(0, 0);
    d.click(10, 0, { shiftKey: true });
    d.click(5, 0, { shiftKey: true });
    const routeId = d.store.createRouteFromSelection('Patrol');
    expect(routeId).toBe(2);
    expect(d.store.doc.routes.at(-1)).toEqual({ id: 2, name: 'Patrol', waypointIds: [1, 3, 2], recorded: null });
    expect(d.store.selectedRouteId).toBe(2);
    d.store.updateRouteName(2, 'Night patrol');
    d.store.removeItem('route', 1);
    expect(d.store.doc.routes.map((r) => r.name)).toEqual(['Night patrol']);
    for (let i = 0; i < 5; i++) d.store.undo();
    expect(d.store.doc).toEqual(sampleDoc());
    for (let i = 0; i < 5; i++) d.store.redo();
    expect(d.store.doc.waypoints[0]).toMatchObject({ name: 'Entrance', theta: 1 });
    expect(d.store.doc.edges[0]).toMatchObject({ oneWay: true, speed: 'slow' });
    expect(d.store.doc.routes.map((r) => r.name)).toEqual(['Night patrol']);
  });

  it('a route needs two waypoints', () => {
    const d = driver(sampleDoc());
    d.click(0, 0);
    expect(d.store.createRouteFromSelection('Short')).toBeNull();
  });

  it('copy and paste waypoints with the edges between them, under new ids', () => {
    const d = driver(sampleDoc());
    const seen: EditorNotice[] = [];
    d.store.onNotice((n) => seen.push(n));
    d.click(0, 0);
    d.click(5, 0, { shiftKey: true });
    d.key('c', { ctrlKey: true });
    d.key('v', { ctrlKey: true });
    expect(d.store.doc.waypoints.slice(3).map((w) => [w.id, w.x, w.y])).toEqual([
      [4, 1, -1],
      [5, 6, -1],
    ]);
    expect(d.store.doc.edges.at(-1)).toMatchObject({ id: 2, from: 4, to: 5 });
    expect(seen.map((n) => n.kind)).toEqual(['copied', 'pasted']);
    d.store.undo();
    expect(d.store.doc).toEqual(sampleDoc());
  });

  it('tracks unsaved changes across undo, redo and save', () => {
    const d = driver(sampleDoc());
    d.store.updateWaypoint(1, { name: 'A' });
    expect(d.store.dirty).toBe(true);
    d.store.markSaved();
    expect(d.store.dirty).toBe(false);
    d.store.undo();
    expect(d.store.dirty).toBe(true);
    d.store.updateWaypoint(1, { name: 'B' });
    d.store.undo();
    expect(d.store.dirty).toBe(true); // the saved state ("A") is no longer on the undo path
  });

  it('read-only refuses edits', () => {
    const d = driver(sampleDoc(), { readOnly: true });
    const seen: EditorNotice[] = [];
    d.store.onNotice((n) => seen.push(n));
    d.store.updateWaypoint(1, { name: 'X' });
    d.click(0, 0);
    d.key('Delete');
    expect(d.store.doc).toEqual(sampleDoc());
    expect(seen).toEqual([{ kind: 'readOnly' }, { kind: 'readOnly' }]);
  });

  it('Escape with an idle tool clears the selection; changing tools cancels the one in progress', () => {
    const d = driver(sampleDoc());
    d.click(0, 0);
    d.key('Escape');
    expect(d.store.selection).toEqual([]);
    d.store.setTool('edge');
    d.click(0, 0);
    d.store.setTool('select');
    expect(d.path().slice(-3)).toEqual(['edge.connecting', 'edge.idle', 'select.idle']);
    expect(d.store.preview).toBeNull();
  });
});
