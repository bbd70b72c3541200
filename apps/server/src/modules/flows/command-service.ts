import { z } from 'zod';
import {
  commandSchema,
  isDataAdmin,
  isSystemAdmin,
  SYSTEM_ONLY_SCOPES,
  validateFlowDefinition,
  type AuditAction,
  type Command,
  type CommandInput,
  type CommandUsage,
  type ErrorDetail,
  type FlowDefinition,
  type UpdateCommandBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, refuseFields, rowsInOrder, type ListAnswer } from '../../lib/list-answer.ts';
import { canSeeBuilding } from '../../lib/scope.ts';
import { expectVersioned, nextVersion, staleUpdate } from '../../lib/versioned.ts';
import {
  commandFilter,
  commandRepo,
  isForeignKeyViolation,
  toCommand,
  type CommandColumns,
  type CommandRow,
} from './command-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

export const invalid = (details: ErrorDetail[]) =>
  new AppError('VALIDATION_FAILED', `Invalid ${details.map((d) => d.path).join(', ')}`, details);

/** 409 IN_USE naming the flows that use a command: one detail per flow (`flows.{id}`, its name). */
const inUse = (flows: Array<{ id: number; name: string }>) =>
  new AppError(
    'IN_USE',
    `The command is used by flows: ${flows.map((f) => f.name).join(', ')}`,
    flows.map((f) => ({ path: `flows.${f.id}`, message: f.name, code: 'flowValidation.inUse' })),
  );

/** The definition rules of a library command (no building: ids are checked where a flow uses it). */
export function commandDefinitionIssues(def: FlowDefinition): ErrorDetail[] {
  return validateFlowDefinition(def, { inCommand: true }).map((i) => ({
    path: `definition.${i.path}`,
    message: i.message,
  }));
}

const listSchema = z.array(commandSchema);

/**
 * The command library (docs/api-flows.md "Commands"). Reading as `commandScope` says; writing:
 * organization administrators their organization's commands (scopes 0 and 1), system
 * administrators every command, system commands (`organizationId` null) and the alpha and
 * development scopes. A command a caller may read but not change is 403; one it may not read, 404.
 */
export function commandService({ db, clock, audit, caches }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = commandRepo(db);

  const record = (
    p: Principal,
    action: AuditAction,
    row: { id: number; organizationId: number | null },
    ip: string,
    detail: Record<string, unknown>,
    trx: Kysely<Database>,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: row.organizationId ?? p.organizationId,
        action,
        targetType: 'command',
        targetId: row.id,
        ip,
        detail,
      },
      trx,
    );

  const requireManager = (p: Principal) => {
    if (!isDataAdmin(p.type)) throw forbidden('Only organization administrators can change commands');
  };

  async function load(p: Principal, id: number): Promise<CommandRow> {
    const row = await repo.byId(p, id);
    if (!row) throw notFound('Command');
    return row;
  }

  /** A command the caller may change: readable, and its own organization's (or any, system admins). */
  async function loadForWrite(p: Principal, id: number): Promise<CommandRow> {
    requireManager(p);
    const row = await load(p, id);
    if (!isSystemAdmin(p.type) && row.organization_id !== p.organizationId)
      throw forbidden('Only system administrators can change system commands');
    return row;
  }

  /** The organization of a new command, and the scope rules. */
  async function placement(p: Principal, body: CommandInput): Promise<number | null> {
    const details: ErrorDetail[] = [];
    if (!isSystemAdmin(p.type) && SYSTEM_ONLY_SCOPES.includes(body.scope))
      details.push({ path: 'scope', message: 'flowValidation.scopeSystemOnly' });
    const organizationId: number | null = body.organizationId === undefined ? p.organizationId : body.organizationId;
    if (!isSystemAdmin(p.type) && organizationId !== p.organizationId)
      details.push({ path: 'organizationId', message: 'validation.notFound' });
    else if (organizationId !== null && !(await repo.organizationExists(organizationId)))
      details.push({ path: 'organizationId', message: 'validation.notFound' });
    details.push(...commandDefinitionIssues(body.definition));
    if (details.length > 0) throw invalid(details);
    return organizationId;
  }

  const columns = (body: CommandInput, organizationId: number | null): CommandColumns => ({
    organization_id: organizationId,
    name: body.name,
    description: body.description,
    category: body.category,
    scope: body.scope,
    models_allowed: JSON.stringify(body.modelsAllowed),
    parameters: JSON.stringify(body.parameters),
    definition: JSON.stringify(body.definition),
    status: body.status,
  });

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, commandFilter);
      refuseFields(f);
      return cachedList('commands', p, rawFilter, listSchema, async () =>
        rowsInOrder(await repo.page(p, f), (ids) => repo.byIds(p, ids), toCommand),
      );
    },

    async get(p: Principal, id: number): Promise<Command> {
      return toCommand(await load(p, id));
    },

    async create(p: Principal, body: CommandInput, ip: string): Promise<Command> {
      requireManager(p);
      const organizationId = await placement(p, body);
      const now = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insert(columns(body, organizationId), now, trx);
        await record(p, 'command.create', { id, organizationId }, ip, { name: body.name, scope: body.scope }, trx);
        return id;
      });
      return toCommand(await load(p, id));
    },

    /** The organization of a command is fixed. */
    async update(p: Principal, id: number, body: UpdateCommandBody, ip: string): Promise<Command> {
      const current = await loadForWrite(p, id);
      const organizationId = await placement(p, {
        ...body,
        organizationId: body.organizationId === undefined ? current.organization_id : body.organizationId,
      });
      if (organizationId !== current.organization_id)
        throw invalid([{ path: 'organizationId', message: 'flowValidation.organizationFixed' }]);
      const before = toCommand(current);
      const changed = (
        ['name', 'description', 'category', 'scope', 'modelsAllowed', 'parameters', 'definition', 'status'] as const
      ).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(body[k]));
      if (changed.length === 0) {
        if (body.updatedAt !== current.updated_at) throw staleUpdate('command');
        return before;
      }
      const version = nextVersion(clock(), current.updated_at);
      await db.transaction().execute(async (trx) => {
        const written = await repo.updateVersioned(
          id,
          body.updatedAt,
          { ...columns(body, organizationId), updated_at: version },
          trx,
        );
        await expectVersioned(
          written,
          'command',
          () => repo.exists(id, trx),
          () => notFound('Command'),
        );
        await record(p, 'command.update', { id, organizationId }, ip, { fields: changed }, trx);
      });
      return toCommand(await load(p, id));
    },

    /** Refused (409 IN_USE, naming the flows) while a flow uses the command. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      const current = await loadForWrite(p, id);
      const users = await repo.usersOf(id);
      if (users.length > 0) throw inUse(users);
      try {
        await db.transaction().execute(async (trx) => {
          if (!(await repo.remove(id, trx))) throw notFound('Command');
          await record(
            p,
            'command.delete',
            { id, organizationId: current.organization_id },
            ip,
            { name: current.name },
            trx,
          );
        });
      } catch (err) {
        // A flow took the command in the meantime.
        if (isForeignKeyViolation(err)) throw inUse(await repo.usersOf(id));
        throw err;
      }
    },

    /** The flows using a command that the caller may see (another tenant's flows are not named). */
    async usage(p: Principal, id: number): Promise<CommandUsage[]> {
      requireManager(p);
      await load(p, id);
      return (await repo.usersOf(id))
        .filter((f) => canSeeBuilding(p, { id: f.building_id, organizationId: f.organization_id }))
        .map((f) => ({
          id: f.id,
          name: f.name,
          buildingId: f.building_id,
          buildingName: f.building_name,
          floorId: f.floor_id,
        }));
    },
  };
}
