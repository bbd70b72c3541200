import {
  adminOps,
  authOps,
  buildingOps,
  buildingSchema,
  createApiClient,
  floorOps,
  floorSchema,
  mapOps,
  myOps,
  operatorOps,
  organizationOps,
  organizationSchema,
  robotOps,
  type BuildingInput,
  type FloorDetail,
  type FloorInput,
  type InitData,
  type LoginChallenge,
  type RobotInput,
  type Session,
} from '@portal/contract';
import { baseUrl } from './state.ts';

/**
 * The end-to-end tests speak to the server through the same typed client as the web app: every call
 * names a contract operation, and every answer is checked against its schema.
 */
export const api = createApiClient({ baseUrl: () => `${baseUrl()}/api` });

export type LoginResult = { kind: 'session'; session: Session } | { kind: 'challenge'; challenge: LoginChallenge };

/** POST /operators/login: a session (200) or a verification-code challenge (202). */
export async function login(loginId: string, password: string): Promise<LoginResult> {
  const res = await api.request(authOps.login, { body: { loginId, loginPw: password } });
  if (!res.ok) throw res.error;
  return res.status === 202
    ? { kind: 'challenge', challenge: res.data as LoginChallenge }
    : { kind: 'session', session: res.data as Session };
}

/** Signs in an account without a verification code and returns its session token. */
export async function tokenFor(loginId: string, password: string): Promise<string> {
  const result = await login(loginId, password);
  if (result.kind !== 'session') throw new Error(`${loginId} needs a verification code; use login()`);
  return result.session.token;
}

/** POST /operators/assertAuthCode with the pending token of the challenge. */
export const assertAuthCode = (pendingToken: string, authDigits: string) =>
  api.call(authOps.assertAuthCode, { token: pendingToken, body: { authDigits } });

/** GET /deliveries (system administrators): the delivery log, newest first. */
export const getDeliveries = (adminToken: string, page = 1, perPage = 20) =>
  api.call(adminOps.listDeliveries, { token: adminToken, query: { page, perPage } });

/** POST /init-data (system administrators): one organization with buildings and operators. */
export const importInitData = (adminToken: string, data: InitData) =>
  api.call(adminOps.importInitData, { token: adminToken, body: data });

/** GET /my/term-agreements/check: the pending term documents of the signed-in operator. */
export const checkTerms = (token: string) => api.call(myOps.checkTermAgreements, { token });

/** POST /operators/logout. */
export const logout = (token: string) => api.call(authOps.logout, { token });

/**
 * The newest verification code mailed to `recipient` (purpose 'auth-code'), read from the delivery
 * log. `after` skips deliveries created before that id, so a resent code is not confused with an old one.
 */
export async function latestAuthCode(
  adminToken: string,
  recipient: string,
  after = 0,
): Promise<{ id: number; code: string }> {
  const { items } = await getDeliveries(adminToken, 1, 50);
  const mail = items.find(
    (d) =>
      d.channel === 'email' &&
      d.purpose === 'auth-code' &&
      d.recipient.toLowerCase() === recipient.toLowerCase() &&
      d.id > after,
  );
  if (!mail) throw new Error(`no auth-code mail to ${recipient} in the delivery log (after id ${after})`);
  const code = /\b(\d{6})\b/.exec(mail.body)?.[1];
  if (!code) throw new Error(`no 6-digit code in delivery ${mail.id}: ${mail.body}`);
  return { id: mail.id, code };
}

/** Id of the newest delivery (0 when the log is empty), to find mails sent after a point. */
export async function latestDeliveryId(adminToken: string): Promise<number> {
  const { items } = await getDeliveries(adminToken, 1, 1);
  return items[0]?.id ?? 0;
}

/** GET /organizations (system administrators: every organization), up to 1000. */
export const getOrganizations = async (token: string) =>
  // Lists answer partial rows (a filter may pick fields); this one asks for whole rows.
  organizationSchema
    .array()
    .parse(await api.call(organizationOps.listOrganizations, { token, query: { filter: { limit: 1000 } } }));

/** GET /buildings: the buildings of the caller's scope, up to 1000. */
export const getBuildings = async (token: string) =>
  buildingSchema
    .array()
    .parse(await api.call(buildingOps.listBuildings, { token, query: { filter: { limit: 1000 } } }));

/** POST /buildings (organization and system administrators). */
export const createBuilding = (token: string, body: BuildingInput) =>
  api.call(buildingOps.createBuilding, { token, body });

/** DELETE /buildings/:id (refused 409 IN_USE while operators belong to it). */
export const deleteBuilding = (token: string, id: number) =>
  api.call(buildingOps.deleteBuilding, { token, params: { id } });

/** GET /buildings/:id/ip-restriction: the switch, the allow-list and the caller's address. */
export const getIpRestriction = (token: string, buildingId: number) =>
  api.call(buildingOps.getIpRestriction, { token, params: { id: buildingId } });

/** POST /buildings/:id/ip-rules. */
export const addIpRule = (token: string, buildingId: number, address: string, description = '') =>
  api.call(buildingOps.createIpRule, { token, params: { id: buildingId }, body: { address, description } });

/** DELETE /ip-rules/:id. */
export const deleteIpRule = (token: string, ruleId: number) =>
  api.call(buildingOps.deleteIpRule, { token, params: { id: ruleId } });

/** DELETE /operators/:id. */
export const deleteOperator = (token: string, id: number) =>
  api.call(operatorOps.deleteOperator, { token, params: { id } });

/** Registers a robot (POST /api/robots); answers the robot and its one-time broker credentials. */
export const createRobot = (token: string, body: RobotInput) => api.call(robotOps.createRobot, { token, body });

/** The floors of a building (GET /api/buildings/{id}/floors). */
export const getFloors = async (token: string, buildingId: number) =>
  floorSchema.array().parse(await api.call(floorOps.listFloors, { token, params: { id: buildingId } }));

// ---------------------------------------------------------------- floors and floor maps (map editor)

/** GET /floors/:id. */
export const getFloor = (token: string, floorId: number) =>
  api.call(floorOps.getFloor, { token, params: { id: floorId } });

/** PATCH /floors/:id: sets the map metadata (metres per pixel, origin) keeping name, type and index. */
export async function setFloorFrame(
  token: string,
  floorId: number,
  frame: { resolution: number; originX: number; originY: number },
): Promise<FloorDetail> {
  const floor = await getFloor(token, floorId);
  const body: FloorInput & { updatedAt: string } = {
    name: floor.name,
    type: floor.type,
    index: floor.index,
    ...frame,
    updatedAt: floor.updatedAt,
  };
  return api.call(floorOps.updateFloor, { token, params: { id: floorId }, body });
}

/** PUT /floors/:id/map-image: a multipart upload of one PNG in the field `file`. */
export function uploadFloorImage(token: string, floorId: number, png: Buffer): Promise<FloorDetail> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'floor.png');
  return api.call(floorOps.uploadFloorMapImage, { token, params: { id: floorId }, body: form });
}

/** GET /floors/:id/map: the current revision of the floor's map. */
export const getFloorMap = (token: string, floorId: number) =>
  api.call(mapOps.getFloorMap, { token, params: { id: floorId } });
