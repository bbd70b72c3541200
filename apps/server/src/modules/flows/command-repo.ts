import { commandParameterSchema, isDataAdmin, isSystemAdmin, CommandScope, type Command } from '@portal/contract';
import { z } from 'zod';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import type { TenantScope } from '../../lib/scope.ts';
import type { CommandTable } from './flow-tables.ts';

/** Allow-list of `GET /commands?filter=` (search: `name: { like: '%text%' }`). */
export const commandFilter = filterSpec(
  'commands',
  {
    ...ID_FIELD,
    name: 'string',
    description: 'string',
    category: 'integer',
    scope: 'integer',
    status: 'integer',
    organizationId: 'integer',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC' },
);

/**
 * Which commands a caller reads (docs/api-flows.md "Commands"): system administrators all; the
 * organization's administrators every command of their organization; everyone in an organization
 * its published ones; and everyone the published system commands.
 */
export function commandScope(p: TenantScope) {
  return (eb: ExpressionBuilder<Database, 'commands'>) => {
    if (isSystemAdmin(p.type)) return eb.and([]);
    const system = eb.and([
      eb('commands.organization_id', 'is', null),
      eb('commands.scope', '=', CommandScope.publish),
    ]);
    const own = isDataAdmin(p.type)
      ? eb('commands.organization_id', '=', p.organizationId)
      : eb.and([
          eb('commands.organization_id', '=', p.organizationId),
          eb('commands.scope', '=', CommandScope.publish),
        ]);
    return eb.or([own, system]);
  };
}

export type CommandRow = Selectable<CommandTable>;
/** The columns an edit writes (JSON columns as text). */
export type CommandColumns = Omit<CommandRow, 'id' | 'created_at' | 'updated_at'>;

const strings = z.array(z.string());
const parameters = z.array(commandParameterSchema);

export const toCommand = (r: CommandRow): Command => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  description: r.description,
  category: r.category,
  scope: r.scope,
  modelsAllowed: strings.parse(JSON.parse(r.models_allowed)),
  parameters: parameters.parse(JSON.parse(r.parameters)),
  definition: JSON.parse(r.definition),
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A write refused by a foreign key (SQLite and PostgreSQL codes): a command a flow took meanwhile. */
export const isForeignKeyViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/** SQL of the command library. Reads are within the caller's scope unless said otherwise. */
export function commandRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope, trx: Kysely<Database> = db) => trx.selectFrom('commands').where(commandScope(p));
  return {
    byId: (p: TenantScope, id: number, trx?: Kysely<Database>): Promise<CommandRow | undefined> =>
      scoped(p, trx).selectAll().where('id', '=', id).executeTakeFirst(),
    /** Any command by id, whatever the caller may read (the caller decides: 403 or 404). */
    anyById: (id: number): Promise<CommandRow | undefined> =>
      db.selectFrom('commands').selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<CommandRow[]> =>
      scoped(p).selectAll().where('id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    /**
     * The active commands a flow of this organization may use, of these ids: the organization's own
     * and the published system commands.
     */
    usableBy(organizationId: number, ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('commands')
        .select(['id', 'models_allowed', 'parameters', 'definition'])
        .where('id', 'in', ids)
        .where('status', '=', 1)
        .where((eb) =>
          eb.or([
            eb('organization_id', '=', organizationId),
            eb.and([eb('organization_id', 'is', null), eb('scope', '=', CommandScope.publish)]),
          ]),
        )
        .execute();
    },
    insert: (columns: CommandColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'commands', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: CommandColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'commands', id, base, columns),
    exists: async (id: number, trx: Kysely<Database> = db) =>
      (await trx.selectFrom('commands').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    /** Whether the row was there. Fails with a foreign key violation while a flow uses it. */
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'commands', id),
    /** The flows using a command (any scope: a command is in use wherever it is used), by name. */
    usersOf(commandId: number, trx: Kysely<Database> = db) {
      return trx
        .selectFrom('flow_commands')
        .innerJoin('flows', 'flows.id', 'flow_commands.flow_id')
        .innerJoin('buildings', 'buildings.id', 'flows.building_id')
        .select([
          'flows.id',
          'flows.name',
          'flows.organization_id',
          'flows.building_id',
          'flows.floor_id',
          'buildings.name as building_name',
        ])
        .where('flow_commands.command_id', '=', commandId)
        .orderBy('flows.name')
        .orderBy('flows.id')
        .execute();
    },
    organizationExists: async (id: number) =>
      (await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
  };
}
export type CommandRepo = ReturnType<typeof commandRepo>;
