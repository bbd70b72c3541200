import type { CreatedRobot, RobotModel } from '@portal/contract';
import { createRobot, getBuildings, getFloors, importInitData, tokenFor } from './api.ts';
import { E2E_ADMIN } from './state.ts';

export interface RobotTenant {
  /** The general operator of the building (not yet agreed to the terms). */
  operator: { loginId: string; password: string };
  adminToken: string;
  buildingId: number;
  floorId: number;
  serialNo: string;
  created: CreatedRobot;
}

/**
 * A tenant of the test's own: an organization with one building and floor, a general operator of
 * that building and one registered robot (not connected yet).
 */
export async function robotTenant(name: string, model: RobotModel): Promise<RobotTenant> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const key = name.toLowerCase();
  const operator = { loginId: `${key}-${stamp}@e2e.example`, password: `${name}-Pass-2026` };
  const adminToken = await tokenFor(E2E_ADMIN.loginId, E2E_ADMIN.password);
  const imported = await importInitData(adminToken, {
    organization: { name: `E2E ${name} ${stamp}`, type: 0, labOption: false },
    buildings: [{ name: `${name} Building`, floors: [{ name: '1F', index: 1, type: 'office' }] }],
    operators: [{ ...operator, firstName: name, lastName: 'Operator', type: 0, building: 0 }],
  });
  const buildingId = (await getBuildings(adminToken)).find((b) => b.organizationId === imported.organizationId)!.id;
  const floor = (await getFloors(adminToken, buildingId))[0]!;
  const serialNo = `${name.slice(0, 4)}-${stamp}`.slice(0, 24).toUpperCase();
  const created = await createRobot(adminToken, {
    serialNo,
    name: `${name} robot`,
    model,
    version: '',
    hardwareRevision: '',
    buildingId,
    floorId: floor.id,
    groupId: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'medium',
    notes: '',
  });
  return { operator, adminToken, buildingId, floorId: floor.id, serialNo, created };
}
