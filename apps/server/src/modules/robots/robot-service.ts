import { z } from 'zod';
import {
  isDataAdmin,
  isSystemAdmin,
  robotSchema,
  robotSettingChangeSchema,
  type CreatedRobot,
  type ErrorDetail,
  type FleetRobot,
  type PendingRobot,
  type Robot,
  type RobotCommand,
  type RobotCredentials,
  type RobotInput,
  type UpdateRobotBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { buildingInScope } from '../buildings/common.ts';
import { duplicate, isUniqueViolation } from '../organizations/admin-rules.ts';
import type { RegistryChange } from '../robot-link/types.ts';
import { requireControls, type ControlsLock } from '../teleop/controls.ts';
import { credentialsOf, mqttUsernameOf, newRobotPassword, ROBOT_MANUFACTURER } from './credentials.ts';
import { robotFilter, robotRepo, settingHistoryFilter, toRobot, type RobotListRow } from './robot-repo.ts';
import type { AuditAction, AuditTargetType } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches' | 'log' | 'robotLink'>;

/** Pending robots answered at most (newest first); the link keeps one row per unknown user name. */
export const PENDING_ROBOTS_MAX = 500;

/** Registering, changing and deleting robots: organization administrators (own organization) and system admins. */
export const canManageRobots = (p: Pick<Principal, 'type'>): boolean => isDataAdmin(p.type);

function requireRobotManager(p: Pick<Principal, 'type'>): void {
  if (!canManageRobots(p)) throw forbidden('Only organization administrators can register and change robots');
}

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

const fieldsNotSupported = (what: string) =>
  new AppError('BAD_FILTER', `Invalid filter: fields is not supported for ${what}`, [
    { path: 'fields', message: `fields is not supported here; every ${what} entry is answered whole` },
  ]);

/** The registry settings as the setting history stores them: contract field name → text (or null). */
const SETTING_FIELDS = [
  'serialNo',
  'name',
  'model',
  'version',
  'hardwareRevision',
  'buildingId',
  'floorId',
  'groupId',
  'status',
  'longTermRecordingAutoStart',
  'videoMode',
  'notes',
] as const satisfies ReadonlyArray<keyof RobotInput>;

const settingText = (v: RobotInput[keyof RobotInput]): string | null => (v === null ? null : String(v));

const robotListSchema = z.array(robotSchema);
const historyListSchema = z.array(robotSettingChangeSchema);

/**
 * The robot registry (spec sections 3 and 5). Reading is scoped like buildings (general operators:
 * their building; others: their organization; system admins: all); registering, changing, deleting
 * and rotating credentials is for organization administrators (own organization) and system
 * administrators; commands for anyone who can see the robot. Another tenant's robot is "not found".
 * The serial number is fixed at registration: it names the robot's MQTT topics and user name.
 */
export function robotService({ db, clock, audit, caches, log, robotLink }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = robotRepo(db);

  async function load(p: Principal, id: number): Promise<RobotListRow> {
    const row = await repo.find(p, id);
    if (!row) throw notFound('Robot');
    return row;
  }

  const record = (
    p: Principal,
    action: AuditAction,
    target: { id: number; organizationId: number | null },
    ip: string,
    detail?: Record<string, unknown>,
    trx: Kysely<Database> = db,
    targetType: AuditTargetType = 'robot',
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organizationId,
        action,
        targetType,
        targetId: target.id,
        ip,
        detail: detail ?? null,
      },
      trx,
    );

  /** After the commit: the link refreshes its view. A failure there must not lose what was saved (or issued). */
  async function tellLink(change: RegistryChange): Promise<void> {
    try {
      await robotLink.registryChanged(change);
    } catch (err) {
      log.error({ err, change }, 'robot link did not take the registry change');
    }
  }

  /**
   * Building, floor and group must exist within the caller's scope and belong together (the floor
   * and the group of that building). Answers the building's organization, which the robot takes.
   */
  async function placement(p: Principal, body: RobotInput): Promise<{ organizationId: number }> {
    const b = await repo.building(body.buildingId);
    if (!b || !canSeeBuilding(p, { id: b.id, organizationId: b.organization_id })) {
      throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
    }
    const details: ErrorDetail[] = [];
    if ((await repo.floorBuildingId(body.floorId)) !== b.id) {
      details.push({ path: 'floorId', message: 'validation.notInBuilding' });
    }
    if (body.groupId !== null && (await repo.groupBuildingId(body.groupId)) !== b.id) {
      details.push({ path: 'groupId', message: 'validation.notInBuilding' });
    }
    if (details.length > 0) throw invalid(details);
    return { organizationId: b.organization_id };
  }

  const columns = (body: RobotInput) => ({
    building_id: body.buildingId,
    floor_id: body.floorId,
    group_id: body.groupId,
    name: body.name,
    model: body.model,
    version: body.version,
    hardware_revision: body.hardwareRevision,
    status: body.status,
    long_term_rec_auto_start: body.longTermRecordingAutoStart ? 1 : 0,
    video_mode: body.videoMode,
    notes: body.notes,
  });

  /**
   * Serials are unique across organizations (they name broker topics). Only a robot the caller can
   * see is called a duplicate (409): a system administrator sees every robot, an organization
   * administrator those of their organization. A serial held in another organization is answered
   * like any unusable serial (400, `validation.serialUnavailable`), so that the other tenant's robot
   * is not confirmed (the rule of login IDs, docs/api-robots.md).
   */
  const serialUnavailable = () =>
    new AppError('VALIDATION_FAILED', 'This serial number cannot be used', [
      { path: 'serialNo', message: 'validation.serialUnavailable' },
    ]);
  async function assertSerialUsable(p: Principal, serialNo: string): Promise<void> {
    const holder = await repo.serialHolder(serialNo);
    if (!holder) return;
    const visible = isSystemAdmin(p.type) || holder.organization_id === p.organizationId;
    throw visible ? duplicate('serialNo', 'A robot with this serial number') : serialUnavailable();
  }
  const guardSerial = async <T>(p: Principal, serialNo: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Taken by a parallel request: answered by the same rule, now that the holder exists.
      await assertSerialUsable(p, serialNo);
      throw serialUnavailable();
    }
  };

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, robotFilter);
      if (f.fields) throw fieldsNotSupported('robot');
      return cachedList('robots', p, rawFilter, robotListSchema, async () => {
        const [rows, total] = await Promise.all([repo.page(p, f), repo.count(p, f.where)]);
        return { items: rows.map(toRobot), total };
      });
    },

    /** The fleet with its live state, from the link's in-memory registry (as the WebSocket snapshots). */
    async fleet(p: Principal, buildingId: number | undefined): Promise<FleetRobot[]> {
      if (buildingId !== undefined) await buildingInScope(db, p, buildingId);
      return robotLink.fleet(p, buildingId ?? null);
    },

    async get(p: Principal, id: number): Promise<Robot> {
      return toRobot(await load(p, id));
    },

    /** The console and the operator screens are addressed by serial (`/console/{serialNo}`...). */
    async getBySerial(p: Principal, serialNo: string): Promise<Robot> {
      const row = await repo.findBySerial(p, serialNo);
      if (!row) throw notFound('Robot');
      return toRobot(row);
    },

    /** Registration; `manufacturer` is the robot's own VDA 5050 manufacturer (default `ugo`). */
    async create(p: Principal, body: RobotInput & { manufacturer?: string }, ip: string): Promise<CreatedRobot> {
      requireRobotManager(p);
      const { organizationId } = await placement(p, body);
      await assertSerialUsable(p, body.serialNo);
      const username = mqttUsernameOf(body.serialNo);
      const { password, hash } = newRobotPassword();
      const now = clock().toISOString();
      const id = await guardSerial(p, body.serialNo, () =>
        db.transaction().execute(async (trx) => {
          // A robot that knocked before it was registered is no longer pending.
          const robotId = await robotRepo(trx).insert({
            ...columns(body),
            organization_id: organizationId,
            serial_no: body.serialNo,
            manufacturer: body.manufacturer ?? ROBOT_MANUFACTURER,
            mqtt_username: username,
            mqtt_password_hash: hash,
            last_communication_at: null,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          });
          await record(
            p,
            'robot.create',
            { id: robotId, organizationId },
            ip,
            { serialNo: body.serialNo, name: body.name },
            trx,
          );
          return robotId;
        }),
      );
      await tellLink({ kind: 'created', robotId: id });
      const robot = await load(p, id);
      return { robot: toRobot(robot), credentials: credentialsOf(robotLink.robotBrokerUrl(), robot, password) };
    },

    /** Each changed setting becomes one setting-history row, in the same transaction as the change. */
    async update(p: Principal, id: number, body: UpdateRobotBody, ip: string): Promise<Robot> {
      requireRobotManager(p);
      const current = await load(p, id);
      if (body.serialNo !== current.serial_no) {
        throw invalid([{ path: 'serialNo', message: 'validation.serialImmutable' }]);
      }
      const { organizationId } = await placement(p, body);
      const before = toRobot(current);
      const changed = SETTING_FIELDS.filter((f) => settingText(before[f]) !== settingText(body[f]));
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('robot');
        return before;
      }
      const version = nextVersion(clock(), current.updated_at);
      const written = await db.transaction().execute(async (trx) => {
        const tx = robotRepo(trx);
        const n = await tx.updateVersioned(id, body.updatedAt, {
          ...columns(body),
          organization_id: organizationId,
          updated_at: version,
        });
        if (Number(n) !== 1) return n;
        // The history follows the robot when a system administrator moves it to another organization.
        if (organizationId !== current.organization_id) await tx.moveHistory(id, organizationId);
        await tx.addHistory(
          changed.map((field) => ({
            robot_id: id,
            organization_id: organizationId,
            field,
            old_value: settingText(before[field]),
            new_value: settingText(body[field]),
            operator_id: p.operatorId,
            changed_at: version,
          })),
        );
        await record(p, 'robot.update', { id, organizationId }, ip, { fields: changed }, trx);
        return n;
      });
      await expectVersioned(
        written,
        'robot',
        async () => (await repo.find(p, id)) !== undefined,
        () => notFound('Robot'),
      );
      await tellLink({ kind: 'updated', robotId: id });
      return toRobot(await load(p, id));
    },

    /** Soft delete: the row and its setting history stay; the serial can be registered again. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireRobotManager(p);
      const current = await load(p, id);
      const now = clock();
      await db.transaction().execute(async (trx) => {
        const gone = await robotRepo(trx).updateLive(id, {
          deleted_at: now.toISOString(),
          updated_at: nextVersion(now, current.updated_at),
        });
        if (Number(gone) !== 1) throw notFound('Robot');
        await record(
          p,
          'robot.delete',
          { id, organizationId: current.organization_id },
          ip,
          { serialNo: current.serial_no },
          trx,
        );
      });
      await tellLink({ kind: 'deleted', robotId: id });
    },

    /** A new broker password; the old one stops working (the link closes the robot's session). */
    async rotateCredentials(p: Principal, id: number, ip: string): Promise<RobotCredentials> {
      requireRobotManager(p);
      const current = await load(p, id);
      const { password, hash } = newRobotPassword();
      await db.transaction().execute(async (trx) => {
        const written = await robotRepo(trx).updateLive(id, { mqtt_password_hash: hash });
        if (Number(written) !== 1) throw notFound('Robot');
        await record(p, 'robot.credentials', { id, organizationId: current.organization_id }, ip, undefined, trx);
      });
      await tellLink({ kind: 'credentials', robotId: id });
      return credentialsOf(robotLink.robotBrokerUrl(), current, password);
    },

    async settingHistory(p: Principal, id: number, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, settingHistoryFilter);
      if (f.fields) throw fieldsNotSupported('setting history');
      await load(p, id);
      return cachedList(`robot-history:${id}`, p, rawFilter, historyListSchema, async () => {
        const { rows, total } = await repo.historyPage(id, f);
        const items = rows.map((r) => ({
          id: r.id,
          robotId: r.robot_id,
          field: r.field,
          oldValue: r.old_value,
          newValue: r.new_value,
          operatorId: r.operator_id,
          operatorName: r.last_name === null ? null : `${r.last_name} ${r.first_name ?? ''}`.trim(),
          changedAt: r.changed_at,
        }));
        return { items, total };
      });
    },

    /** Robots that tried the broker with a user name the registry does not know (system admins). */
    async pending(): Promise<PendingRobot[]> {
      const rows = await repo.pending(PENDING_ROBOTS_MAX);
      return rows.map((r) => ({
        id: r.id,
        clientId: r.client_id,
        username: r.username,
        ip: r.ip,
        attempts: r.attempts,
        firstSeenAt: r.first_seen_at,
        lastSeenAt: r.last_seen_at,
      }));
    },

    async dismissPending(p: Principal, id: number, ip: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const username = await robotRepo(trx).deletePending(id);
        if (username === undefined) throw notFound('Pending robot');
        await record(p, 'robot.pending.delete', { id, organizationId: null }, ip, { username }, trx, 'pending-robot');
      });
    },

    /**
     * Pause, resume or cancel the robot's order: changes what the robot does, so only for the
     * operator holding the controls (or anyone while nobody does; TELEOP_LOCKED, 409, otherwise).
     * Throws ROBOT_OFFLINE (409) from the link when the robot is not connected.
     */
    async command(p: Principal, id: number, command: RobotCommand, ip: string, lock: ControlsLock): Promise<void> {
      const robot = await load(p, id);
      requireControls(lock, robot.id, p);
      await robotLink.command(id, command);
      await record(p, 'robot.command', { id, organizationId: robot.organization_id }, ip, { command });
    },
  };
}
