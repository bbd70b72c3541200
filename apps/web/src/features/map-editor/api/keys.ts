/** Query keys of the map editor and waypoint screens. */
export const mapKeys = {
  map: (floorId: number) => ['floor-maps', floorId] as const,
  revisions: (floorId: number) => ['floor-maps', floorId, 'revisions'] as const,
  revision: (floorId: number, revision: number) => ['floor-maps', floorId, 'revisions', revision] as const,
  waypoints: (floorId: number) => ['floor-maps', floorId, 'waypoints'] as const,
  waypoint: (floorId: number, id: number) => ['floor-maps', floorId, 'waypoints', id] as const,
  floor: (floorId: number) => ['floors', floorId] as const,
};
