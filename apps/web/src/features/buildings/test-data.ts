import type { Building, Group } from '@portal/contract';

export const at = '2026-01-05T09:00:00.000Z';

export const makeBuilding = (over: Partial<Building> = {}): Building => ({
  id: 10,
  name: 'Marunouchi Tower',
  prefecture: '13',
  city: 'Chiyoda',
  address: '1-1',
  postalCode: '100-0005',
  latitude: 35.68,
  longitude: 139.76,
  organizationId: 1,
  status: 1,
  ipRestrictionEnabled: false,
  timeZone: 'Asia/Tokyo',
  createdAt: at,
  updatedAt: at,
  groups: [],
  flowGroups: [],
  ...over,
});

export const makeGroup = (id: number, name: string, sortOrder: number): Group => ({
  id,
  buildingId: 10,
  name,
  sortOrder,
  createdAt: at,
  updatedAt: at,
});
