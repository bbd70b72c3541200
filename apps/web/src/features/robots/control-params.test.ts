import { fleetRobotSchema, type FleetRobot } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { parseControlParams, visibleRobots } from './control-params';

const robot = (id: number, name: string, groupName: string | null, battery: number | null = 50): FleetRobot =>
  fleetRobotSchema.parse({
    id,
    serialNo: `S-${id}`,
    name,
    model: 'pro',
    organizationId: 1,
    buildingId: 1,
    buildingName: 'B',
    groupId: groupName === null ? null : id * 10,
    groupName,
    status: 1,
    live: {
      robotId: id,
      online: true,
      everSeen: true,
      statusLabel: 'available',
      battery,
      batteryState: 'active',
      activity: 'idle',
      orderId: null,
      floorId: 1,
      position: null,
      issues: [],
      lastCommunicationAt: null,
      protocolVersion: '2.1.0',
    },
  });

const fleet = [
  robot(1, 'Delta', null, 90),
  robot(2, 'Alpha', 'Lobby', 10),
  robot(3, 'Charlie', 'Atrium', 40),
  robot(4, 'Bravo', 'Lobby', 70),
];
const order = (search: string) =>
  visibleRobots(fleet, parseControlParams(new URLSearchParams(search))).map((r) => r.name);

describe('robot control order', () => {
  it('sorts by name by default', () => {
    expect(order('')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  });
  it('groups robots by their group, ungrouped last', () => {
    expect(order('sort=group')).toEqual(['Charlie', 'Alpha', 'Bravo', 'Delta']);
  });
  it('sorts by battery, lowest first', () => {
    expect(order('sort=battery')).toEqual(['Alpha', 'Charlie', 'Bravo', 'Delta']);
  });
  it('ignores an unknown sort', () => {
    expect(order('sort=drop-table')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
  });
});
