import {
  OperatorType,
  operatorListSchema,
  type CreateOperatorBody,
  type Operator,
  type UpdateOperatorBody,
} from '@portal/contract';
import type { Kysely } from 'kysely';
import { cachedLists, type ListAnswer } from '../../lib/list-answer.ts';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { parseFilter } from '../../lib/filter.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { assertAdministrator, duplicate, isUniqueViolation } from '../organizations/admin-rules.ts';
import { operatorFilter, operatorRepo, toOperator } from './operator-repo.ts';
import { newOperatorRow } from './new-operator.ts';
import type { AuditAction } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'caches'> & Partial<Pick<AppContext, 'operatorEvents'>>;

/** Locked by an administrator: until unlocked (the login's own lock lasts 10 minutes). */
export const LOCKED_FOR_GOOD = '9999-12-31T00:00:00.000Z';
const LOGIN_ID_MAX = 254;

const conflict = (message: string) => new AppError('CONFLICT', message);
const invalid = (path: string, message: string, text: string) =>
  new AppError('VALIDATION_FAILED', text, [{ path, message }]);

/**
 * Operator management. Organization administrators manage the operators of their own organization
 * (types 0, 1 and 2, never 9, never moved to another organization); system administrators manage all.
 * Nobody deletes, locks or demotes themselves.
 */
export function operatorService({ db, clock, audit, caches, operatorEvents }: Ctx) {
  const cachedList = cachedLists(caches.lists);
  const repo = operatorRepo(db);

  async function load(p: Principal, id: number) {
    const row = await repo.find(p, id);
    if (!row) throw notFound('Operator');
    return row;
  }

  /** What the body may say about type, organization and building, for this caller. */
  async function checkPlacement(p: Principal, body: { type: number; organizationId: number; buildingId: number }) {
    if (p.type !== OperatorType.systemAdmin) {
      if (body.type === OperatorType.systemAdmin)
        throw forbidden('Only system administrators may make a system administrator');
      if (body.organizationId !== p.organizationId)
        throw forbidden('You may manage only the operators of your organization');
    } else if (!(await repo.organizationExists(body.organizationId))) {
      throw invalid('organizationId', 'validation.notFound', 'The organization does not exist');
    }
    const b = await repo.buildingOf(body.buildingId);
    if (!b || b.organization_id !== body.organizationId) {
      throw invalid('buildingId', 'validation.notFound', 'The building is not one of the organization');
    }
  }

  /**
   * Login IDs are unique across all organizations. Only what the caller can see is called a
   * duplicate (409): a system administrator sees every operator, an organization administrator those
   * of their own organization. An ID held elsewhere (another organization, or a deleted operator) is
   * answered like any unusable login ID (400, `validation.loginIdUnavailable`), so that its existence
   * in another tenant is not confirmed (docs/api-organizations-operators.md).
   */
  const loginIdUnavailable = () =>
    new AppError('VALIDATION_FAILED', 'This login ID cannot be used', [
      { path: 'loginId', message: 'validation.loginIdUnavailable' },
    ]);
  async function assertLoginIdUsable(p: Principal, loginId: string, exceptId: number | null): Promise<void> {
    const holder = await repo.loginIdHolder(loginId, exceptId);
    if (!holder) return;
    const visible =
      p.type === OperatorType.systemAdmin ||
      (holder.deleted_at === null && holder.organization_id === p.organizationId);
    throw visible ? duplicate('loginId', 'An operator with this login ID') : loginIdUnavailable();
  }
  const guardLoginId = async <T>(
    p: Principal,
    loginId: string,
    exceptId: number | null,
    work: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Taken by a parallel request: answered by the same rule, now that the holder exists.
      await assertLoginIdUsable(p, loginId, exceptId);
      throw loginIdUnavailable();
    }
  };

  const record = (
    p: Principal,
    action: AuditAction,
    target: { id: number; organization_id: number },
    ip: string,
    detail?: Record<string, unknown>,
    trx: Kysely<Database> = db,
  ) =>
    audit.record(
      {
        operatorId: p.operatorId,
        organizationId: target.organization_id,
        action,
        targetType: 'operator',
        targetId: target.id,
        ip,
        detail: detail ?? null,
      },
      trx,
    );

  /** An operator the caller may change: organization administrators never touch a system administrator. */
  async function loadManaged(p: Principal, id: number) {
    const row = await load(p, id);
    if (p.type !== OperatorType.systemAdmin && row.type === OperatorType.systemAdmin) {
      throw forbidden('Only system administrators may manage a system administrator');
    }
    return row;
  }

  async function answer(p: Principal, id: number): Promise<Operator> {
    return toOperator(await load(p, id));
  }

  return {
    async list(p: Principal, rawFilter: string | undefined): Promise<ListAnswer> {
      assertAdministrator(p);
      const f = parseFilter(rawFilter, operatorFilter);
      if (f.fields) {
        throw new AppError('BAD_FILTER', 'Invalid filter: fields is not supported for operators', [
          { path: 'fields', message: 'fields is not supported here; every operator is answered whole' },
        ]);
      }
      return cachedList('operators', p, rawFilter, operatorListSchema, async () => {
        const { rows, total } = await repo.list(p, f);
        return { items: rows.map(toOperator), total };
      });
    },

    async get(p: Principal, id: number): Promise<Operator> {
      assertAdministrator(p);
      return answer(p, id);
    },

    async create(p: Principal, body: CreateOperatorBody, ip: string): Promise<Operator> {
      assertAdministrator(p);
      await checkPlacement(p, body);
      const loginId = body.loginId.toLowerCase();
      await assertLoginIdUsable(p, loginId, null);
      const hash = await hashPassword(body.password);
      const now = clock().toISOString();
      const row = await guardLoginId(p, loginId, null, () =>
        repo.insert(
          newOperatorRow({
            organizationId: body.organizationId,
            buildingId: body.buildingId,
            loginId,
            passwordHash: hash,
            firstName: body.firstName,
            lastName: body.lastName,
            type: body.type,
            flowEditRestricted: body.flowEditRestricted,
            exportRestricted: body.exportRestricted,
            now,
          }),
        ),
      );
      await record(p, 'operator.create', row, ip, { loginId, type: body.type });
      return answer(p, row.id);
    },

    async update(p: Principal, id: number, body: UpdateOperatorBody, ip: string): Promise<Operator> {
      assertAdministrator(p);
      const current = await loadManaged(p, id);
      if (p.type !== OperatorType.systemAdmin && body.organizationId !== current.organization_id) {
        throw forbidden('You cannot move an operator to another organization');
      }
      if (id === p.operatorId && body.type !== current.type) throw conflict('You cannot change your own operator type');
      await checkPlacement(p, body);
      const loginId = body.loginId.toLowerCase();
      await assertLoginIdUsable(p, loginId, id);
      const hash = body.password === undefined ? null : await hashPassword(body.password);
      const now = clock();
      const written = await guardLoginId(p, loginId, id, () =>
        db.transaction().execute(async (trx) => {
          const updated = await repo.updateVersioned(
            trx,
            id,
            {
              login_id: loginId,
              first_name: body.firstName,
              last_name: body.lastName,
              type: body.type,
              organization_id: body.organizationId,
              building_id: body.buildingId,
              flow_edit_restricted: body.flowEditRestricted ? 1 : 0,
              // Without the field the stored value stays; only general operators are restricted.
              export_restricted: body.type === 0 ? Number(body.exportRestricted ?? current.export_restricted === 1) : 0,
              ...(hash ? { password_hash: hash, password_changed_at: now.toISOString() } : {}),
              updated_at: nextVersion(now, current.updated_at),
            },
            body.updatedAt,
          );
          if (Number(updated) !== 1) return updated;
          // A new password ends every session of the operator (the caller's own survives a self-edit).
          if (hash)
            await repo.revokeSessions(trx, id, now.toISOString(), id === p.operatorId ? p.sessionId : undefined);
          await record(
            p,
            'operator.update',
            { id, organization_id: body.organizationId },
            ip,
            {
              passwordChanged: hash !== null,
              ...(body.type !== current.type ? { type: { from: current.type, to: body.type } } : {}),
              ...(body.organizationId !== current.organization_id
                ? { organizationId: { from: current.organization_id, to: body.organizationId } }
                : {}),
            },
            trx,
          );
          return updated;
        }),
      );
      await expectVersioned(
        written,
        'operator',
        () => repo.exists(p, id),
        () => notFound('Operator'),
      );
      operatorEvents?.changed(id);
      return answer(p, id);
    },

    /** Soft delete: the row stays for the audit trail, its login ID is freed and every session ends at once. */
    async remove(p: Principal, id: number, ip: string): Promise<void> {
      assertAdministrator(p);
      if (id === p.operatorId) throw conflict('You cannot delete your own account');
      const current = await loadManaged(p, id);
      const now = clock();
      const freed = `deleted+${id}+${current.login_id}`.slice(0, LOGIN_ID_MAX);
      await db.transaction().execute(async (trx) => {
        const gone = await repo.softDelete(trx, id, {
          deleted_at: now.toISOString(),
          login_id: freed,
          status: 0,
          updated_at: nextVersion(now, current.updated_at),
        });
        if (!gone) throw notFound('Operator');
        await repo.revokeSessions(trx, id, now.toISOString());
        await record(p, 'operator.delete', current, ip, { loginId: current.login_id }, trx);
      });
      operatorEvents?.changed(id);
    },

    async lock(p: Principal, id: number, ip: string): Promise<Operator> {
      assertAdministrator(p);
      if (id === p.operatorId) throw conflict('You cannot lock your own account');
      const current = await loadManaged(p, id);
      const now = clock();
      await db.transaction().execute(async (trx) => {
        await repo.update(id, { locked_until: LOCKED_FOR_GOOD, updated_at: nextVersion(now, current.updated_at) }, trx);
        await repo.revokeSessions(trx, id, now.toISOString());
        await record(p, 'operator.lock', current, ip, undefined, trx);
      });
      operatorEvents?.changed(id);
      return answer(p, id);
    },

    async unlock(p: Principal, id: number, ip: string): Promise<Operator> {
      assertAdministrator(p);
      const current = await loadManaged(p, id);
      await repo.update(id, {
        locked_until: null,
        failed_login_count: 0,
        updated_at: nextVersion(clock(), current.updated_at),
      });
      await record(p, 'operator.unlock', current, ip);
      return answer(p, id);
    },

    /** From the next request on, the operator can only change their password (plugins/auth.ts). */
    async forcePasswordChange(p: Principal, id: number, ip: string): Promise<Operator> {
      assertAdministrator(p);
      const current = await loadManaged(p, id);
      await repo.update(id, { must_change_password: 1, updated_at: nextVersion(clock(), current.updated_at) });
      await record(p, 'operator.force-password-change', current, ip);
      operatorEvents?.changed(id);
      return answer(p, id);
    },
  };
}
