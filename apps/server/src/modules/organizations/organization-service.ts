import { OperatorType, type Organization, type OrganizationInput, type UpdateOrganizationBody } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database, OrganizationRow } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { scopeWhere } from '../../lib/scope.ts';
import {
  assertAdministrator,
  assertSystemAdministrator,
  duplicate,
  isUniqueViolation,
  nextVersion,
  orNull,
  staleUpdate,
} from './admin-rules.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit'>;

export const toOrganization = (r: OrganizationRow): Organization => ({
  id: r.id,
  name: r.name,
  type: r.type as Organization['type'],
  level: r.level,
  prefecture: r.prefecture,
  city: r.city,
  address: r.address,
  postalCode: r.postal_code,
  status: r.status as Organization['status'],
  labOption: r.lab_option === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Fields only a system administrator may change (an organization administrator gets 403). */
const SYSTEM_FIELDS = ['type', 'level', 'status', 'labOption'] as const;

const columns = (body: OrganizationInput) => ({
  name: body.name,
  type: body.type,
  level: body.level,
  prefecture: orNull(body.prefecture),
  city: orNull(body.city),
  address: orNull(body.address),
  postal_code: orNull(body.postalCode),
  status: body.status,
  lab_option: body.labOption ? 1 : 0,
});

/** The organization of an id within the caller's scope; another tenant's is "not found". */
export async function scopedOrganization(db: Kysely<Database>, p: Principal, id: number): Promise<OrganizationRow> {
  const row = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => scopeWhere(p, eb, { organization: 'organizations.id' }))
    .executeTakeFirst();
  if (!row) throw notFound('Organization');
  return row;
}

/** Organizations (spec section 3): detail, create, update and delete; the list is in modules/directory. */
export function organizationService({ db, clock, audit }: Ctx) {
  async function assertNameFree(name: string, exceptId: number | null): Promise<void> {
    let q = db
      .selectFrom('organizations')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])));
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw duplicate('name', 'An organization with this name');
  }

  /** A lost race on the unique index answers like the check before it. */
  async function guardUnique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate('name', 'An organization with this name');
      throw err;
    }
  }

  return {
    async get(p: Principal, id: number): Promise<Organization> {
      assertAdministrator(p);
      return toOrganization(await scopedOrganization(db, p, id));
    },

    async create(p: Principal, body: OrganizationInput, ip: string): Promise<Organization> {
      assertSystemAdministrator(p);
      await assertNameFree(body.name, null);
      const now = clock().toISOString();
      const row = await guardUnique(() =>
        db.transaction().execute(async (trx) => {
          const org = await trx
            .insertInto('organizations')
            .values({ ...columns(body), created_at: now, updated_at: now })
            .returningAll()
            .executeTakeFirstOrThrow();
          // Every organization has a contract row (no end date, paid), as the initial import creates.
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
          await audit.record(
            {
              operatorId: p.operatorId,
              organizationId: org.id,
              action: 'organization.create',
              targetType: 'organization',
              targetId: org.id,
              ip,
              detail: { name: org.name },
            },
            trx,
          );
          return org;
        }),
      );
      return toOrganization(row);
    },

    async update(p: Principal, id: number, body: UpdateOrganizationBody, ip: string): Promise<Organization> {
      assertAdministrator(p);
      const current = await scopedOrganization(db, p, id);
      const before = toOrganization(current);
      if (p.type !== OperatorType.systemAdmin) {
        const changed = SYSTEM_FIELDS.filter((f) => before[f] !== body[f]);
        if (changed.length > 0) throw forbidden(`Only system administrators may change ${changed.join(', ')}`);
      }
      await assertNameFree(body.name, id);
      const values = columns(body);
      const updatedAt = nextVersion(clock(), current.updated_at);
      const result = await guardUnique(() =>
        db
          .updateTable('organizations')
          .set({ ...values, updated_at: updatedAt })
          .where('id', '=', id)
          .where('updated_at', '=', body.updatedAt)
          .executeTakeFirst(),
      );
      if (Number(result.numUpdatedRows) !== 1) {
        const exists = await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst();
        throw exists ? staleUpdate('organization') : notFound('Organization');
      }
      const after = await scopedOrganization(db, p, id);
      const changedFields = (Object.keys(before) as Array<keyof Organization>).filter(
        (k) => k !== 'updatedAt' && before[k] !== toOrganization(after)[k],
      );
      await audit.record({
        operatorId: p.operatorId,
        organizationId: id,
        action: 'organization.update',
        targetType: 'organization',
        targetId: id,
        ip,
        detail: { fields: changedFields },
      });
      return toOrganization(after);
    },

    /** Only an empty organization can go: no buildings, no operators, not anyone's maintenance company. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      assertSystemAdministrator(p);
      const org = await scopedOrganization(db, p, id);
      const n = (
        table: 'buildings' | 'operators' | 'contracts' | 'files',
        column: 'organization_id' | 'maintenance_company_id',
      ) =>
        db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', id)
          .$if(table === 'operators', (q) => q.where('deleted_at' as never, 'is', null))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      const uses = {
        buildings: await n('buildings', 'organization_id'),
        operators: await n('operators', 'organization_id'),
        // The maintenance company named in other organizations' contracts.
        contracts: await n('contracts', 'maintenance_company_id'),
        files: await n('files', 'organization_id'),
      };
      const inUse = Object.entries(uses).filter(([, count]) => count > 0);
      if (inUse.length > 0) {
        throw new AppError(
          'IN_USE',
          `The organization is still in use (${inUse.map(([what, count]) => `${count} ${what}`).join(', ')}); remove those first`,
          inUse.map(([what]) => ({ path: what, message: 'validation.inUse' })),
        );
      }
      await db.transaction().execute(async (trx) => {
        // What is left hangs only on the organization: its contract, organization-wide notification
        // targets and announcements, and the rows of operators deleted earlier (soft-deleted).
        await trx.deleteFrom('notification_targets').where('organization_id', '=', id).execute();
        await trx.deleteFrom('announcements').where('organization_id', '=', id).execute();
        await trx.deleteFrom('contracts').where('organization_id', '=', id).execute();
        await trx
          .deleteFrom('operators')
          .where('organization_id', '=', id)
          .where('deleted_at', 'is not', null)
          .execute();
        const gone = await trx.deleteFrom('organizations').where('id', '=', id).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== 1) throw notFound('Organization');
        await audit.record(
          {
            operatorId: p.operatorId,
            organizationId: id,
            action: 'organization.delete',
            targetType: 'organization',
            targetId: id,
            ip,
            detail: { name: org.name },
          },
          trx,
        );
      });
    },
  };
}
