import type { MapDocument, WaypointTypeCode } from '@portal/contract';

/** New ids are the collection's highest id plus one. */
export const nextId = (items: ReadonlyArray<{ id: number }>): number =>
  items.reduce((m, i) => Math.max(m, i.id), 0) + 1;

const prefixes: Record<WaypointTypeCode, string> = {
  0: 'Origin',
  1: 'WP',
  2: 'Charge',
  3: 'Standby',
  10: 'Action',
  99: 'Hidden',
};

/** Default waypoint name by type ("WP 12", "Charge 13"); the id keeps it unique. */
export const defaultWaypointName = (type: WaypointTypeCode, id: number): string => `${prefixes[type]} ${id}`;

/** Routes that visit any of the waypoints, by name (a waypoint in use cannot be deleted). */
export const routesUsing = (doc: MapDocument, waypointIds: ReadonlySet<number>): string[] =>
  doc.routes.filter((r) => r.waypointIds.some((id) => waypointIds.has(id))).map((r) => r.name);
