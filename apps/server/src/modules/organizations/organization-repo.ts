import type { Organization } from '@portal/contract';
import type { Insertable, Kysely } from 'kysely';
import type { Principal } from '../../context.ts';
import type { Database, OrganizationRow, OrganizationTable } from '../../db/schema.ts';
import { rowExists, updateVersioned } from '../../db/rows.ts';
import { filteredPage, type ParsedFilter } from '../../lib/filter.ts';
import { filterSpec, ID_FIELD, TIMESTAMP_FIELDS } from '../../lib/filter-spec.ts';
import { camelRow } from '../../lib/naming.ts';
import { scopeWhere } from '../../lib/scope.ts';

/** Allow-list of `GET /organizations?filter=` (docs/architecture-decisions.md "API"). */
export const organizationFilter = filterSpec(
  'organizations',
  {
    ...ID_FIELD,
    name: 'string',
    type: 'integer',
    level: 'integer',
    prefecture: 'string',
    city: 'string',
    address: 'string',
    postalCode: 'string',
    status: 'integer',
    labOption: 'boolean',
    ...TIMESTAMP_FIELDS,
  },
  { defaultOrder: 'type ASC' },
);

export const toOrganization = ({ type, status, lab_option, ...rest }: OrganizationRow): Organization => ({
  ...camelRow(rest),
  type: type as Organization['type'],
  status: status as Organization['status'],
  labOption: lab_option === 1,
});

/** The columns an organization's fields write (no id, no versions). */
export type OrganizationColumns = Omit<Insertable<OrganizationTable>, 'id' | 'created_at' | 'updated_at'>;

/** What may still hang on an organization: each blocks its deletion. */
export type OrganizationUse = 'buildings' | 'operators' | 'contracts' | 'files';

/** SQL of organizations. Reads within a caller's scope take the principal; another tenant's row is not found. */
export function organizationRepo(db: Kysely<Database>) {
  const scoped = (p: Principal) =>
    db.selectFrom('organizations').where((eb) => scopeWhere(p, eb, { organization: 'organizations.id' }));

  return {
    /** One page of the caller's organizations (`fields` picks what each item shows) and the total. */
    page: (p: Principal, f: ParsedFilter) => filteredPage(scoped(p), f, (q) => q.selectAll()),

    /** The organization of an id within the caller's scope. */
    find(p: Principal, id: number) {
      return scoped(p).selectAll().where('id', '=', id).executeTakeFirst();
    },

    exists: (id: number): Promise<boolean> => rowExists(db, 'organizations', id),

    /** Whether another organization has this name (case-insensitive). */
    async nameTaken(name: string, exceptId: number | null) {
      let q = db
        .selectFrom('organizations')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])));
      if (exceptId !== null) q = q.where('id', '!=', exceptId);
      return !!(await q.executeTakeFirst());
    },

    /** A new organization with its contract row (no end date, paid), as the initial import creates. */
    async insert(trx: Kysely<Database>, values: OrganizationColumns, now: string) {
      const org = await trx
        .insertInto('organizations')
        .values({ ...values, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('contracts')
        .values({
          organization_id: org.id,
          contract_end_at: null,
          payment_completed: 1,
          maintenance_company_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return org;
    },

    /** Writes only while the stored version is still `basedOn`; answers the rows written (0 or 1). */
    updateVersioned: (id: number, values: OrganizationColumns, basedOn: string, updatedAt: string) =>
      updateVersioned(db, 'organizations', id, basedOn, { ...values, updated_at: updatedAt }),

    /** How many of each thing still hang on the organization (live operators only). */
    async uses(id: number): Promise<Record<OrganizationUse, number>> {
      const n = (table: OrganizationUse, column: 'organization_id' | 'maintenance_company_id') =>
        db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', id)
          .$if(table === 'operators', (q) => q.where('deleted_at' as never, 'is', null))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      return {
        buildings: await n('buildings', 'organization_id'),
        operators: await n('operators', 'organization_id'),
        // The maintenance company named in other organizations' contracts.
        contracts: await n('contracts', 'maintenance_company_id'),
        files: await n('files', 'organization_id'),
      };
    },

    /**
     * Deletes an organization and what is left hanging only on it: its contract, organization-wide
     * notification targets and announcements, and the rows of operators deleted earlier (soft-deleted).
     * Answers whether the organization was there.
     */
    async remove(trx: Kysely<Database>, id: number): Promise<boolean> {
      await trx.deleteFrom('notification_targets').where('organization_id', '=', id).execute();
      await trx.deleteFrom('announcements').where('organization_id', '=', id).execute();
      await trx.deleteFrom('contracts').where('organization_id', '=', id).execute();
      await trx.deleteFrom('operators').where('organization_id', '=', id).where('deleted_at', 'is not', null).execute();
      const gone = await trx.deleteFrom('organizations').where('id', '=', id).executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    },
  };
}
export type OrganizationRepo = ReturnType<typeof organizationRepo>;
