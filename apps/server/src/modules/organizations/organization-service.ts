import {
  OperatorType,
  organizationListSchema,
  type Organization,
  type OrganizationInput,
  type UpdateOrganizationBody,
} from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import type { OrganizationRow } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { parseFilter } from '../../lib/filter.ts';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { assertAdministrator, assertSystemAdministrator, duplicate, isUniqueViolation, orNull } from './admin-rules.ts';
import {
  organizationFilter,
  organizationRepo,
  toOrganization,
  type OrganizationColumns,
  type OrganizationRepo,
} from './organization-repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'>;

/** Fields only a system administrator may change (an organization administrator gets 403). */
const SYSTEM_FIELDS = ['type', 'level', 'status', 'labOption'] as const;

const columns = (body: OrganizationInput): OrganizationColumns => ({
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
export async function scopedOrganization(repo: OrganizationRepo, p: Principal, id: number): Promise<OrganizationRow> {
  const row = await repo.find(p, id);
  if (!row) throw notFound('Organization');
  return row;
}

/** An organization as a list shows it: only the fields asked for (all when none are named). */
const listItem = (org: Organization, fields: string[] | null): Partial<Organization> =>
  fields ? Object.fromEntries(fields.map((k) => [k, org[k as keyof Organization]])) : org;

/** Organizations (spec section 3): the list, detail, create, update and delete. */
export function organizationService({ db, clock, audit, caches }: Ctx) {
  const repo = organizationRepo(db);
  const cachedList = cachedLists(caches.lists);

  async function assertNameFree(name: string, exceptId: number | null): Promise<void> {
    if (await repo.nameTaken(name, exceptId)) throw duplicate('name', 'An organization with this name');
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
    /** The caller's organizations (any operator: their own; system administrators: all). */
    list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      const f = parseFilter(rawFilter, organizationFilter);
      return cachedList('organizations', p, rawFilter, organizationListSchema, async () => {
        const { rows, total } = await repo.page(p, f);
        return { items: rows.map((r) => listItem(toOrganization(r), f.fields)), total };
      });
    },

    async get(p: Principal, id: number): Promise<Organization> {
      assertAdministrator(p);
      return toOrganization(await scopedOrganization(repo, p, id));
    },

    async create(p: Principal, body: OrganizationInput, ip: string): Promise<Organization> {
      assertSystemAdministrator(p);
      await assertNameFree(body.name, null);
      const now = clock().toISOString();
      const row = await guardUnique(() =>
        db.transaction().execute(async (trx) => {
          const org = await repo.insert(trx, columns(body), now);
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
      const current = await scopedOrganization(repo, p, id);
      const before = toOrganization(current);
      if (p.type !== OperatorType.systemAdmin) {
        const changed = SYSTEM_FIELDS.filter((f) => before[f] !== body[f]);
        if (changed.length > 0) throw forbidden(`Only system administrators may change ${changed.join(', ')}`);
      }
      await assertNameFree(body.name, id);
      const updatedAt = nextVersion(clock(), current.updated_at);
      const written = await guardUnique(() => repo.updateVersioned(id, columns(body), body.updatedAt, updatedAt));
      await expectVersioned(
        written,
        'organization',
        () => repo.exists(id),
        () => notFound('Organization'),
      );
      const after = toOrganization(await scopedOrganization(repo, p, id));
      const changedFields = (Object.keys(before) as Array<keyof Organization>).filter(
        (k) => k !== 'updatedAt' && before[k] !== after[k],
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
      return after;
    },

    /** Only an empty organization can go: no buildings, no operators, not anyone's maintenance company. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      assertSystemAdministrator(p);
      const org = await scopedOrganization(repo, p, id);
      const inUse = Object.entries(await repo.uses(id)).filter(([, count]) => count > 0);
      if (inUse.length > 0) {
        throw new AppError(
          'IN_USE',
          `The organization is still in use (${inUse.map(([what, count]) => `${count} ${what}`).join(', ')}); remove those first`,
          inUse.map(([what]) => ({ path: what, message: 'validation.inUse' })),
        );
      }
      await db.transaction().execute(async (trx) => {
        if (!(await repo.remove(trx, id))) throw notFound('Organization');
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
