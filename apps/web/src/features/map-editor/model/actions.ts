import type { MapDocument, MapEdge, MapRoute, Waypoint } from '@portal/contract';
import { addItems, composite, removeItems, type Command } from './commands';
import { nextId, routesUsing } from './naming';
import type { SelectionItem } from './types';

/** Commands the side panel and shortcuts run: pure functions of the document and the selection. */

const idsOf = (selection: readonly SelectionItem[], kind: SelectionItem['kind']) =>
  new Set(selection.filter((s) => s.kind === kind).map((s) => s.id));

export type DeleteResult = { ok: true; command: Command; count: number } | { ok: false; routes: string[] } | null;

/**
 * Deletes the selection: waypoints with the edges that touch them, edges, no-go areas, partial maps.
 * Refused (naming the routes) when a route visits a selected waypoint.
 */
export function deleteSelection(doc: MapDocument, selection: readonly SelectionItem[]): DeleteResult {
  if (selection.length === 0) return null;
  const waypoints = idsOf(selection, 'waypoint');
  const routes = routesUsing(doc, waypoints);
  if (routes.length > 0) return { ok: false, routes };
  const edges = idsOf(selection, 'edge');
  for (const e of doc.edges) if (waypoints.has(e.from) || waypoints.has(e.to)) edges.add(e.id);
  const parts: Command[] = [];
  if (edges.size) parts.push(removeItems(doc, 'edges', edges));
  if (waypoints.size) parts.push(removeItems(doc, 'waypoints', waypoints));
  const noGo = idsOf(selection, 'noGo');
  if (noGo.size) parts.push(removeItems(doc, 'noGoAreas', noGo));
  const partial = idsOf(selection, 'partialMap');
  if (partial.size) parts.push(removeItems(doc, 'partialMaps', partial));
  return { ok: true, command: composite('delete', parts), count: selection.length };
}

export interface Clipboard {
  waypoints: Waypoint[];
  edges: MapEdge[];
}

/** The selected waypoints and the edges between them. */
export function copySelection(doc: MapDocument, selection: readonly SelectionItem[]): Clipboard | null {
  const ids = idsOf(selection, 'waypoint');
  if (ids.size === 0) return null;
  return {
    waypoints: doc.waypoints.filter((w) => ids.has(w.id)),
    edges: doc.edges.filter((e) => ids.has(e.from) && ids.has(e.to)),
  };
}

/** Pastes copies with new ids, `offset` metres away; returns the command and the new waypoint ids. */
export function paste(doc: MapDocument, clip: Clipboard, offset = 1): { command: Command; ids: number[] } {
  let wpId = nextId(doc.waypoints);
  let edgeId = nextId(doc.edges);
  const map = new Map<number, number>();
  const waypoints = clip.waypoints.map((w) => {
    const id = wpId++;
    map.set(w.id, id);
    return { ...w, id, x: w.x + offset, y: w.y - offset };
  });
  const edges = clip.edges.map((e) => ({ ...e, id: edgeId++, from: map.get(e.from)!, to: map.get(e.to)!, path: null }));
  const parts = [addItems('waypoints', waypoints)];
  if (edges.length) parts.push(addItems('edges', edges));
  return { command: composite('paste', parts), ids: waypoints.map((w) => w.id) };
}

/** A route through the selected waypoints in the order they were clicked (at least two). */
export function routeFromSelection(
  doc: MapDocument,
  selection: readonly SelectionItem[],
  name: string,
): { command: Command; route: MapRoute } | null {
  const waypointIds = selection.filter((s) => s.kind === 'waypoint').map((s) => s.id);
  if (waypointIds.length < 2 || !name.trim()) return null;
  const route: MapRoute = { id: nextId(doc.routes), name: name.trim(), waypointIds, recorded: null };
  return { command: addItems('routes', [route], 'add route'), route };
}
