import {
  commonModeOf,
  isDataAdmin,
  overlayCommandMappings,
  type CommandMapping,
  type ErrorDetail,
  type OperatorCommandMode,
  type RobotCommandMapping,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { refuseFields, rowsInOrder } from '../../lib/list-answer.ts';
import { canSeeBuilding, robotInScope } from '../../lib/scope.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import { isUniqueViolation } from '../organizations/admin-rules.ts';
import {
  commandMappingFilter,
  commandMappingRepo,
  toCommandMapping,
  type CommandMappingColumns,
  type CommandMappingRow,
} from './command-mapping-repo.ts';
import type { CommandMappingInputParsed, UpdateCommandMappingParsed } from './types.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

/** Spec §5 "mode must be unused": 400 on `mode`. */
const modeInUse = () => invalid([{ path: 'mode', message: 'commandMappingValidation.modeInUse' }]);

/** Spec §6: organization administrators and system administrators change mappings; others read. */
function requireWriter(p: Pick<Principal, 'type'>): void {
  if (!isDataAdmin(p.type))
    throw forbidden('Only organization administrators can register, update or delete command mappings');
}

/**
 * Command mappings (docs/api-command-mappings.md). Reading within tenancy (general operators: their
 * building); writing for organization and system administrators within their scope. Another
 * tenant's mapping is "not found". The field rules come with the contract's schema; here those that
 * need the database: the building is the caller's, and the mode is unused in the building (checked
 * first for a clear answer, held by the unique index when two requests race). A stale edit is 409
 * STALE_UPDATE; each saved change adds one to the revision.
 */
export function commandMappingService({ db, clock, audit }: Ctx) {
  const repo = commandMappingRepo(db);

  const record = (
    p: Principal,
    action: 'commandMapping.create' | 'commandMapping.update' | 'commandMapping.delete',
    target: { id: number; organizationId: number },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organizationId,
        action,
        targetType: 'command-mapping',
        targetId: target.id,
        ip,
        detail,
      },
      trx,
    );

  async function load(p: Principal, id: number): Promise<CommandMappingRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Command mapping');
    return row;
  }

  /** The organization of the mapping's building (400 when the caller cannot use the building). */
  async function placement(p: Principal, buildingId: number): Promise<number> {
    const building = await repo.building(buildingId);
    if (!building || !canSeeBuilding(p, { id: building.id, organizationId: building.organization_id }))
      throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
    return building.organization_id;
  }

  const columns = (
    body: CommandMappingInputParsed,
    organizationId: number,
    revision: number,
  ): CommandMappingColumns => ({
    organization_id: organizationId,
    building_id: body.buildingId,
    name: body.name,
    mode: body.mode,
    memo: body.memo,
    revision,
    status: body.status,
    definition: JSON.stringify(body.definition),
  });

  /** Runs a write; a unique violation (the building's mode taken meanwhile) is "mode must be unused". */
  async function guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw modeInUse();
      throw err;
    }
  }

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<{ items: CommandMapping[]; total: number }> {
      const f = parseFilter(rawFilter, commandMappingFilter);
      refuseFields(f);
      return rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toCommandMapping);
    },

    async get(p: Principal, id: number): Promise<CommandMapping> {
      return toCommandMapping(await load(p, id));
    },

    async create(p: Principal, body: CommandMappingInputParsed, ip: string): Promise<CommandMapping> {
      requireWriter(p);
      const organizationId = await placement(p, body.buildingId);
      if (await repo.modeUser(body.buildingId, body.mode, null)) throw modeInUse();
      const now = clock().toISOString();
      const id = await guarded(() =>
        db.transaction().execute(async (trx) => {
          const id = await repo.insert(columns(body, organizationId, 1), now, trx);
          await record(
            p,
            'commandMapping.create',
            { id, organizationId },
            ip,
            { name: body.name, mode: body.mode },
            trx,
          );
          return id;
        }),
      );
      return toCommandMapping(await load(p, id));
    },

    async update(p: Principal, id: number, body: UpdateCommandMappingParsed, ip: string): Promise<CommandMapping> {
      requireWriter(p);
      const current = await load(p, id);
      const organizationId = await placement(p, body.buildingId);
      if (organizationId !== current.organization_id)
        throw invalid([{ path: 'buildingId', message: 'validation.notFound' }]);
      if (body.updatedAt !== current.updated_at) throw staleUpdate('command mapping');
      if (await repo.modeUser(body.buildingId, body.mode, id)) throw modeInUse();
      const version = nextVersion(clock(), current.updated_at);
      await guarded(() =>
        db.transaction().execute(async (trx) => {
          const written = await repo.updateVersioned(
            id,
            body.updatedAt,
            { ...columns(body, organizationId, current.revision + 1), updated_at: version },
            trx,
          );
          await expectVersioned(
            written,
            'command mapping',
            () => repo.exists(id, trx),
            () => notFound('Command mapping'),
          );
          await record(
            p,
            'commandMapping.update',
            { id, organizationId },
            ip,
            { name: body.name, mode: body.mode },
            trx,
          );
        }),
      );
      return toCommandMapping(await load(p, id));
    },

    async remove(p: Principal, id: number, ip: string): Promise<void> {
      requireWriter(p);
      const current = await load(p, id);
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(id, trx))) throw notFound('Command mapping');
        await record(
          p,
          'commandMapping.delete',
          { id, organizationId: current.organization_id },
          ip,
          { name: current.name, mode: current.mode },
          trx,
        );
      });
    },

    /** What a robot's controllers offer in a mode: its building's enabled common set and mode mapping. */
    async forRobot(p: Principal, robotId: number, mode: OperatorCommandMode): Promise<RobotCommandMapping> {
      const robot = await repo.robot(robotId);
      if (!robot || !robotInScope(p, { organizationId: robot.organization_id, buildingId: robot.building_id }))
        throw notFound('Robot');
      const common = commonModeOf(mode);
      const rows = (await repo.enabledOf(robot.building_id, [mode, common])).map((r) =>
        toCommandMapping({ ...r, building_name: '' }),
      );
      const commonRow = rows.find((r) => r.mode === common);
      const ownRow = rows.find((r) => r.mode === mode);
      return {
        robotId,
        buildingId: robot.building_id,
        mode,
        mappings: [commonRow, ownRow].flatMap((m) => (m ? [{ id: m.id, name: m.name, mode: m.mode }] : [])),
        entries: overlayCommandMappings(commonRow?.definition.entries ?? [], ownRow?.definition.entries ?? []),
      };
    },
  };
}
export type CommandMappingService = ReturnType<typeof commandMappingService>;
