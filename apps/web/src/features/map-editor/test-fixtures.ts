import { floorDetailSchema, floorMapSchema, type FloorMap, type MapDocument } from '@portal/contract';

/** The map editor's screen tests: one floor (5, building 10) with two waypoints and an edge. */
export const testDocument: MapDocument = {
  waypoints: [
    { id: 1, name: 'Entrance', x: 1, y: 2, theta: 0, type: 0 },
    { id: 2, name: 'Charger', x: 5, y: 2, theta: 1.5708, type: 2 },
  ],
  edges: [{ id: 1, from: 1, to: 2, oneWay: false, speed: 'normal', path: null }],
  routes: [],
  noGoAreas: [],
  partialMaps: [],
};

export const testFloorMap = (over: Partial<FloorMap> = {}): FloorMap =>
  floorMapSchema.parse({
    floorId: 5,
    buildingId: 10,
    revision: 3,
    savedAt: '2026-01-10T01:00:00.000Z',
    savedBy: 'Taro Suzuki',
    image: null,
    document: testDocument,
    ...over,
  });

export const testFloor = floorDetailSchema.parse({
  id: 5,
  name: 'Office 3F',
  buildingId: 10,
  organizationId: 1,
  type: 'office',
  index: 3,
  img: null,
  imgWidth: null,
  imgHeight: null,
  ugomap: null,
  resolution: null,
  originX: null,
  originY: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
