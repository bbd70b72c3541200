import {
  buildingListSchema,
  buildingOps,
  floorOps,
  myOps,
  robotOps,
  contractSchema,
  fleetRobotSchema,
  floorListSchema,
  sessionSchema,
  termCheckSchema,
  type Contract,
  type OperatorTypeCode,
  type Session,
  type TermCheck,
  type TermDocument,
} from '@portal/contract';
import { z } from 'zod';
import { on, reply, type Routes } from './mock-api';

export const makeSession = (type: OperatorTypeCode = 0, over: Partial<Session> = {}): Session =>
  sessionSchema.parse({
    token: 'token-abc',
    id: 7,
    type,
    firstName: 'Hanako',
    lastName: 'Yamada',
    organizationId: 1,
    buildingId: 10,
    labsEnabled: false,
    skywayKey: 'sky',
    language: null,
    ...over,
  });

export const termDoc = (kind: TermDocument['kind'], id: number): TermDocument => ({
  id,
  kind,
  version: '2.0',
  title: `${kind} document`,
  body: `Body of ${kind}`,
  publishedAt: '2025-01-01T00:00:00.000Z',
});

export const noPendingTerms: TermCheck = { TOS: null, PP: null, MC: null };

export const makeContract = (over: Partial<Contract> = {}): Contract =>
  contractSchema.parse({
    isArchive: true,
    isMiniAsilla: false,
    isLilz: false,
    isHakaruAi: false,
    isKanriroid: false,
    isAutoGuide: false,
    contractEndAt: '2099-12-31T00:00:00.000Z',
    paymentCompleted: true,
    maintenanceCompany: { id: 3, name: 'Maint Co.', isOwner: false },
    buildings: [],
    ...over,
  });

/** The calls every signed-in screen makes, answering "nothing pending". */
export function signedInRoutes(opts: { terms?: TermCheck; contract?: Contract } = {}): Routes {
  return {
    [on(myOps.checkTermAgreements)]: () => reply(termCheckSchema, opts.terms ?? noPendingTerms),
    [on(myOps.getContract)]: () => reply(contractSchema, opts.contract ?? makeContract()),
    [on(buildingOps.listBuildings)]: () =>
      reply(buildingListSchema, [
        { id: 10, name: 'Marunouchi Tower', status: 1 },
        { id: 11, name: 'Shinjuku Annex', status: 1 },
      ]),
    [on(robotOps.listFleet)]: () => reply(z.array(fleetRobotSchema), []),
    [on(floorOps.listFloors, { id: 10 })]: () =>
      reply(floorListSchema, [
        { id: 2, name: 'Office', buildingId: 10, type: 'office', index: 2 },
        { id: 1, name: 'Entrance', buildingId: 10, type: 'entrance', index: 1 },
      ]),
  };
}
