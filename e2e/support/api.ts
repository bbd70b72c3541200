import type {
  Building,
  BuildingInput,
  CreatedRobot,
  Delivery,
  ErrorBody,
  FloorDetail,
  FloorInput,
  FloorMap,
  InitData,
  IpRestriction,
  IpRule,
  LoginChallenge,
  Organization,
  RobotInput,
  Session,
  TermCheck,
  initDataResultSchema,
} from '@portal/contract';
import { baseUrl } from './state.ts';

/** Small typed client of the API for the end-to-end tests; it speaks the contract's types. */

export type InitDataResult = ReturnType<typeof initDataResultSchema.parse>;
export type Page<T> = { items: T[]; total: number; page: number; perPage: number };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
    method: string,
    path: string,
  ) {
    super(`${method} ${path} answered ${status}${body ? ` ${body.error.code}: ${body.error.message}` : ''}`);
  }
  get code(): string | undefined {
    return this.body?.error.code;
  }
}

interface CallOptions {
  token?: string;
  body?: unknown;
}

/** Sends one request; returns the status and parsed JSON body (null when empty) without throwing. */
export async function call(
  method: string,
  path: string,
  { token, body }: CallOptions = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Like `call`, but any status outside `ok` throws an ApiError carrying the error body. */
async function request<T>(method: string, path: string, ok: number[], options: CallOptions = {}): Promise<T> {
  const res = await call(method, path, options);
  if (!ok.includes(res.status)) throw new ApiError(res.status, res.body as ErrorBody | null, method, path);
  return res.body as T;
}

export type LoginResult = { kind: 'session'; session: Session } | { kind: 'challenge'; challenge: LoginChallenge };

/** POST /operators/login: a session (200) or a verification-code challenge (202). */
export async function login(loginId: string, password: string): Promise<LoginResult> {
  const res = await call('POST', '/operators/login', { body: { loginId, loginPw: password } });
  if (res.status === 200) return { kind: 'session', session: res.body as Session };
  if (res.status === 202) return { kind: 'challenge', challenge: res.body as LoginChallenge };
  throw new ApiError(res.status, res.body as ErrorBody | null, 'POST', '/operators/login');
}

/** Signs in an account without a verification code and returns its session token. */
export async function tokenFor(loginId: string, password: string): Promise<string> {
  const result = await login(loginId, password);
  if (result.kind !== 'session') throw new Error(`${loginId} needs a verification code; use login()`);
  return result.session.token;
}

/** POST /operators/assertAuthCode with the pending token of the challenge. */
export function assertAuthCode(pendingToken: string, authDigits: string): Promise<Session> {
  return request<Session>('POST', '/operators/assertAuthCode', [200], { token: pendingToken, body: { authDigits } });
}

/** GET /deliveries (system administrators): the delivery log, newest first. */
export function getDeliveries(adminToken: string, page = 1, perPage = 20): Promise<Page<Delivery>> {
  return request<Page<Delivery>>('GET', `/deliveries?page=${page}&perPage=${perPage}`, [200], { token: adminToken });
}

/** POST /init-data (system administrators): one organization with buildings and operators. */
export function importInitData(adminToken: string, data: InitData): Promise<InitDataResult> {
  return request<InitDataResult>('POST', '/init-data', [201], { token: adminToken, body: data });
}

/** GET /my/term-agreements/check: the pending term documents of the signed-in operator. */
export function checkTerms(token: string): Promise<TermCheck> {
  return request<TermCheck>('GET', '/my/term-agreements/check', [200], { token });
}

/** POST /operators/logout. */
export async function logout(token: string): Promise<void> {
  await request<null>('POST', '/operators/logout', [204], { token });
}

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
export function getOrganizations(token: string): Promise<Organization[]> {
  return request<Organization[]>('GET', `/organizations?filter=${encodeURIComponent('{"limit":1000}')}`, [200], {
    token,
  });
}

/** GET /buildings: the buildings of the caller's scope, up to 1000. */
export function getBuildings(token: string): Promise<Building[]> {
  return request<Building[]>('GET', `/buildings?filter=${encodeURIComponent('{"limit":1000}')}`, [200], { token });
}

/** POST /buildings (organization and system administrators). */
export function createBuilding(token: string, body: BuildingInput): Promise<Building> {
  return request<Building>('POST', '/buildings', [201], { token, body });
}

/** DELETE /buildings/:id (refused 409 IN_USE while operators belong to it). */
export async function deleteBuilding(token: string, id: number): Promise<void> {
  await request<null>('DELETE', `/buildings/${id}`, [204], { token });
}

/** GET /buildings/:id/ip-restriction: the switch, the allow-list and the caller's address. */
export function getIpRestriction(token: string, buildingId: number): Promise<IpRestriction> {
  return request<IpRestriction>('GET', `/buildings/${buildingId}/ip-restriction`, [200], { token });
}

/** POST /buildings/:id/ip-rules. */
export function addIpRule(token: string, buildingId: number, address: string, description = ''): Promise<IpRule> {
  return request<IpRule>('POST', `/buildings/${buildingId}/ip-rules`, [201], {
    token,
    body: { address, description },
  });
}

/** DELETE /ip-rules/:id. */
export async function deleteIpRule(token: string, ruleId: number): Promise<void> {
  await request<null>('DELETE', `/ip-rules/${ruleId}`, [204], { token });
}

/** DELETE /operators/:id. */
export async function deleteOperator(token: string, id: number): Promise<void> {
  await request<null>('DELETE', `/operators/${id}`, [204], { token });
}

/** Registers a robot (POST /api/robots); answers the robot and its one-time broker credentials. */
export function createRobot(token: string, body: RobotInput): Promise<CreatedRobot> {
  return request<CreatedRobot>('POST', '/robots', [201], { token, body });
}

/** The floors of a building (GET /api/buildings/{id}/floors). */
export function getFloors(token: string, buildingId: number): Promise<Array<{ id: number; name: string }>> {
  return request('GET', `/buildings/${buildingId}/floors`, [200], { token });
}

// ---------------------------------------------------------------- floors and floor maps (map editor)

/** GET /floors/:id. */
export function getFloor(token: string, floorId: number): Promise<FloorDetail> {
  return request<FloorDetail>('GET', `/floors/${floorId}`, [200], { token });
}

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
  return request<FloorDetail>('PATCH', `/floors/${floorId}`, [200], { token, body });
}

/** PUT /floors/:id/map-image: a multipart upload of one PNG in the field `file`. */
export async function uploadFloorImage(token: string, floorId: number, png: Buffer): Promise<FloorDetail> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'floor.png');
  const path = `/floors/${floorId}/map-image`;
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: form,
  });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : null;
  if (res.status !== 200) throw new ApiError(res.status, body as ErrorBody | null, 'PUT', path);
  return body as FloorDetail;
}

/** GET /floors/:id/map: the current revision of the floor's map. */
export function getFloorMap(token: string, floorId: number): Promise<FloorMap> {
  return request<FloorMap>('GET', `/floors/${floorId}/map`, [200], { token });
}
