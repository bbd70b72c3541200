import { isSystemAdmin, OperatorType, type FleetRobot } from '@portal/contract';
import type { TenantScope } from '../../lib/scope.ts';
import { liveOf, significantKey, type RobotEntry } from './fleet-state.ts';
import type { RegistryRow } from './registry-repo.ts';

/** The link's in-memory fleet: each registered robot's entry, by id and by its VDA 5050 topic names. */
export function createFleet() {
  const byId = new Map<number, RobotEntry>();
  const byKey = new Map<string, RobotEntry>(); // `${manufacturer}/${serial}`
  const keyOf = (manufacturer: string, serial: string) => `${manufacturer}/${serial}`;

  return {
    get: (robotId: number): RobotEntry | undefined => byId.get(robotId),
    /** The robot of topic levels `{manufacturer}/{serialNumber}`. */
    byTopic: (manufacturer: string, serialNumber: string): RobotEntry | undefined =>
      byKey.get(keyOf(manufacturer, serialNumber)),
    entries: (): IterableIterator<RobotEntry> => byId.values(),
    /** Adds a robot from its registry row, or refreshes the registry facts of a known one. */
    upsert(row: RegistryRow): RobotEntry {
      const existing = byId.get(row.id);
      const facts = {
        id: row.id,
        organizationId: row.organizationId,
        buildingId: row.buildingId,
        buildingName: row.buildingName,
        floorId: row.floorId,
        groupId: row.groupId,
        groupName: row.groupName,
        serialNo: row.serialNo,
        name: row.name,
        model: row.model,
        manufacturer: row.manufacturer,
        status: row.status,
        videoMode: row.videoMode,
      };
      if (existing) {
        byKey.delete(keyOf(existing.manufacturer, existing.serialNo));
        Object.assign(existing, facts);
        byKey.set(keyOf(existing.manufacturer, existing.serialNo), existing);
        return existing;
      }
      const lastSeen = row.lastCommunicationAt ? Date.parse(row.lastCommunicationAt) : 0;
      const entry: RobotEntry = {
        ...facts,
        online: false,
        everSeen: lastSeen > 0,
        lastSeen,
        notReporting: false,
        sentOrder: null,
        protocolVersion: null,
        state: null,
        factsheet: null,
        teleop: null,
        position: null,
        liveKey: '',
        headerIds: { order: 0, instantActions: 0 },
      };
      entry.liveKey = significantKey(liveOf(entry));
      byId.set(entry.id, entry);
      byKey.set(keyOf(entry.manufacturer, entry.serialNo), entry);
      return entry;
    },
    /** Stores what a message made of a robot's entry (same object: both indexes keep pointing at it). */
    update(entry: RobotEntry, next: RobotEntry): void {
      Object.assign(entry, next);
    },
    remove(entry: RobotEntry): void {
      byId.delete(entry.id);
      byKey.delete(keyOf(entry.manufacturer, entry.serialNo));
    },
  };
}

export type Fleet = ReturnType<typeof createFleet>;

export const inScope = (scope: TenantScope, e: RobotEntry): boolean =>
  isSystemAdmin(scope.type) ||
  (e.organizationId === scope.organizationId &&
    (scope.type !== OperatorType.general || e.buildingId === scope.buildingId));

export const fleetRobot = (e: RobotEntry): FleetRobot => ({
  id: e.id,
  serialNo: e.serialNo,
  name: e.name,
  model: e.model,
  organizationId: e.organizationId,
  buildingId: e.buildingId,
  buildingName: e.buildingName,
  groupId: e.groupId,
  groupName: e.groupName,
  status: e.status,
  live: liveOf(e),
});
