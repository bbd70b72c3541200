import { commandMappingDefinitionSchema, type CommandMapping, type CommandMappingStatus } from '@portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { deleteById, insertReturningId, rowExists, updateVersioned } from '../../db/rows.ts';
import { applyFilter, applyWhere, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TENANT_FIELDS, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { scopeWhere, type TenantScope } from '../../lib/scope.ts';
import type { CommandMappingTable } from './command-mapping-tables.ts';

/** Allow-list of `GET /command-mappings?filter=`; ordered by name. */
export const commandMappingFilter = filterSpec(
  'command_mappings',
  {
    ...ID_FIELD,
    name: 'string',
    mode: 'integer',
    memo: 'string',
    revision: 'integer',
    status: 'integer',
    ...TENANT_FIELDS,
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'name ASC', defaultLimit: 50, maxLimit: 500 },
);

export type CommandMappingRow = Selectable<CommandMappingTable> & { building_name: string };
export type CommandMappingColumns = Omit<Selectable<CommandMappingTable>, 'id' | 'created_at' | 'updated_at'>;

export const toCommandMapping = (r: CommandMappingRow): CommandMapping => ({
  id: r.id,
  organizationId: r.organization_id,
  buildingId: r.building_id,
  buildingName: r.building_name,
  name: r.name,
  mode: r.mode,
  memo: r.memo,
  revision: r.revision,
  status: r.status as CommandMappingStatus,
  definition: commandMappingDefinitionSchema.parse(JSON.parse(r.definition)),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** SQL of command mappings. Reads are within the caller's scope unless said otherwise. */
export function commandMappingRepo(db: Kysely<Database>) {
  const scoped = (p: TenantScope) =>
    db.selectFrom('command_mappings').where((eb) =>
      scopeWhere(p, eb, {
        organization: 'command_mappings.organization_id',
        building: 'command_mappings.building_id',
      }),
    );
  const withNames = (p: TenantScope) =>
    scoped(p)
      .innerJoin('buildings', 'buildings.id', 'command_mappings.building_id')
      .selectAll('command_mappings')
      .select(['buildings.name as building_name']);

  return {
    byId: (p: TenantScope, id: number): Promise<CommandMappingRow | undefined> =>
      withNames(p).where('command_mappings.id', '=', id).executeTakeFirst(),
    byIds: (p: TenantScope, ids: number[]): Promise<CommandMappingRow[]> =>
      withNames(p).where('command_mappings.id', 'in', ids).execute(),
    async page(p: TenantScope, f: ParsedFilter): Promise<{ ids: number[]; total: number }> {
      const [idRows, count] = await Promise.all([
        applyFilter(scoped(p).select('id'), f).execute(),
        applyWhere(scoped(p), f.where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { ids: idRows.map((r) => r.id), total: Number(count.n) };
    },
    exists: (id: number, trx: Kysely<Database> = db) => rowExists(trx, 'command_mappings', id),
    insert: (columns: CommandMappingColumns, now: string, trx: Kysely<Database>): Promise<number> =>
      insertReturningId(trx, 'command_mappings', { ...columns, created_at: now, updated_at: now }),
    updateVersioned: (
      id: number,
      base: string,
      columns: CommandMappingColumns & { updated_at: string },
      trx: Kysely<Database>,
    ): Promise<bigint> => updateVersioned(trx, 'command_mappings', id, base, columns),
    remove: (id: number, trx: Kysely<Database>): Promise<boolean> => deleteById(trx, 'command_mappings', id),
    /** The mapping that uses a mode in a building (any but `exceptId`), if one does. */
    modeUser: (buildingId: number, mode: number, exceptId: number | null, trx: Kysely<Database> = db) =>
      trx
        .selectFrom('command_mappings')
        .select(['id', 'name'])
        .where('building_id', '=', buildingId)
        .where('mode', '=', mode)
        .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId ?? 0))
        .executeTakeFirst(),
    /** The enabled mappings of a building in the given modes (a robot's controllers). */
    enabledOf: (buildingId: number, modes: number[]) =>
      db
        .selectFrom('command_mappings')
        .selectAll()
        .where('building_id', '=', buildingId)
        .where('mode', 'in', modes)
        .where('status', '=', 1)
        .execute(),

    // ------------------------------------------------------------ what a mapping names
    building: (id: number) =>
      db.selectFrom('buildings').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst(),
    robot: (id: number) =>
      db.selectFrom('robots').select(['id', 'organization_id', 'building_id']).where('id', '=', id).executeTakeFirst(),
  };
}
