import type { NotifTarget, NotifTargetInput, UpdateNotifTargetBody } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { AppContext, Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { mask, secretBox } from '../../lib/crypto.ts';
import { createNotifier, testNotificationText, type Notifier } from '../../services/notifier.ts';
import { assertAdministrator, nextVersion, staleUpdate } from './admin-rules.ts';
import { scopedOrganization } from './organization-service.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'config' | 'mailer'>;
type Row = Awaited<ReturnType<ReturnType<typeof rowsOf>['one']>>;

/** Webhook and chat-bot URLs carry credentials in the URL itself: they are sealed like passwords. */
const SEALED_ADDRESS_TYPES = new Set([1, 6]);
const SENDABLE_TYPES = new Set([0, 1, 6]);

function rowsOf(db: Kysely<Database>) {
  return {
    one: (organizationId: number, id: number) =>
      db
        .selectFrom('notification_targets')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
  };
}

/** Notification targets of an organization (optionally of one of its buildings), with sealed secrets. */
export function notifTargetService(ctx: Ctx, notifier: Notifier = createNotifier(ctx)) {
  const { db, clock, audit } = ctx;
  const box = secretBox(ctx.config.secretKey);
  const rows = rowsOf(db);

  /** A sealed secret shown masked; one that no longer opens (key changed) shows only the mask. */
  const masked = (sealed: string) => {
    try {
      return mask(box.open(sealed));
    } catch {
      return mask('');
    }
  };

  const toApi = (r: NonNullable<Row>): NotifTarget => ({
    id: r.id,
    organizationId: r.organization_id,
    type: r.type as NotifTarget['type'],
    level: r.level as NotifTarget['level'],
    buildingId: r.building_id,
    room: r.room,
    address: r.address_sealed === 1 ? masked(r.address) : r.address,
    botLoginId: r.bot_login_id,
    botPassword: r.bot_password === null ? null : masked(r.bot_password),
    spaceId: r.space_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  async function assertBuildingOf(organizationId: number, buildingId: number | null): Promise<void> {
    if (buildingId === null) return;
    const b = await db
      .selectFrom('buildings')
      .select('id')
      .where('id', '=', buildingId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!b) {
      throw new AppError('VALIDATION_FAILED', 'The building is not one of this organization', [
        { path: 'buildingId', message: 'validation.notFound' },
      ]);
    }
  }

  /** The organization must be the caller's (404 otherwise), and the target one of its own. */
  async function target(p: Principal, organizationId: number, id: number) {
    await scopedOrganization(db, p, organizationId);
    const row = await rows.one(organizationId, id);
    if (!row) throw notFound('Notification target');
    return row;
  }

  const sealedAddress = (type: number, address: string) =>
    SEALED_ADDRESS_TYPES.has(type) ? { address: box.seal(address), address_sealed: 1 } : { address, address_sealed: 0 };

  /** Every column but the address (sealed or not, see sealedAddress). */
  const columns = (body: Omit<NotifTargetInput, 'address'>) => ({
    type: body.type,
    level: body.level,
    building_id: body.buildingId,
    room: body.room,
    bot_login_id: body.botLoginId,
    space_id: body.spaceId,
  });

  const record = (
    p: Principal,
    organizationId: number,
    action: string,
    id: number,
    ip: string,
    detail?: Record<string, unknown>,
  ) =>
    audit.record({
      operatorId: p.operatorId,
      organizationId,
      action,
      targetType: 'notif-target',
      targetId: id,
      ip,
      detail: detail ?? null,
    });

  return {
    async list(p: Principal, organizationId: number): Promise<NotifTarget[]> {
      assertAdministrator(p);
      await scopedOrganization(db, p, organizationId);
      const list = await db
        .selectFrom('notification_targets')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('building_id')
        .orderBy('id')
        .execute();
      return list.map(toApi);
    },

    async get(p: Principal, organizationId: number, id: number): Promise<NotifTarget> {
      assertAdministrator(p);
      return toApi(await target(p, organizationId, id));
    },

    async create(p: Principal, organizationId: number, body: NotifTargetInput, ip: string): Promise<NotifTarget> {
      assertAdministrator(p);
      await scopedOrganization(db, p, organizationId);
      await assertBuildingOf(organizationId, body.buildingId);
      const now = clock().toISOString();
      const row = await db
        .insertInto('notification_targets')
        .values({
          organization_id: organizationId,
          ...columns(body),
          ...sealedAddress(body.type, body.address),
          bot_password: body.botPassword ? box.seal(body.botPassword) : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await record(p, organizationId, 'notif-target.create', row.id, ip, {
        type: row.type,
        buildingId: row.building_id,
      });
      return toApi(row);
    },

    async update(
      p: Principal,
      organizationId: number,
      id: number,
      body: UpdateNotifTargetBody,
      ip: string,
    ): Promise<NotifTarget> {
      assertAdministrator(p);
      const current = await target(p, organizationId, id);
      await assertBuildingOf(organizationId, body.buildingId);
      // An omitted address keeps the stored one, which only makes sense for the same type.
      if (body.address === undefined && current.type !== body.type) {
        throw new AppError('VALIDATION_FAILED', 'Enter the address for the new type', [
          { path: 'address', message: 'validation.required' },
        ]);
      }
      const address = body.address === undefined ? {} : sealedAddress(body.type, body.address);
      // botPassword: undefined keeps the stored one, '' clears it, anything else replaces it.
      const botPassword =
        body.botPassword === undefined
          ? {}
          : { bot_password: body.botPassword === '' ? null : box.seal(body.botPassword) };
      const result = await db
        .updateTable('notification_targets')
        .set({
          ...columns(body),
          ...address,
          ...botPassword,
          updated_at: nextVersion(clock(), current.updated_at),
        })
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('updated_at', '=', body.updatedAt)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw (await rows.one(organizationId, id))
          ? staleUpdate('notification target')
          : notFound('Notification target');
      }
      await record(p, organizationId, 'notif-target.update', id, ip, {
        type: body.type,
        botPassword: body.botPassword === undefined ? 'kept' : body.botPassword === '' ? 'cleared' : 'replaced',
      });
      return toApi((await rows.one(organizationId, id))!);
    },

    async remove(p: Principal, organizationId: number, id: number, ip: string): Promise<void> {
      assertAdministrator(p);
      await target(p, organizationId, id);
      const gone = await db
        .deleteFrom('notification_targets')
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) throw notFound('Notification target');
      await record(p, organizationId, 'notif-target.delete', id, ip);
    },

    /** Sends a test message now and answers what happened (email: stored in the outbox for the mailer). */
    async test(p: Principal, organizationId: number, id: number, ip: string) {
      assertAdministrator(p);
      const org = await scopedOrganization(db, p, organizationId);
      const row = await target(p, organizationId, id);
      if (!SENDABLE_TYPES.has(row.type)) throw new AppError('CONFLICT', 'This notification channel is disabled');
      let source = org.name;
      if (row.building_id !== null) {
        const b = await db.selectFrom('buildings').select('name').where('id', '=', row.building_id).executeTakeFirst();
        if (b) source = `${org.name} / ${b.name}`;
      }
      let address: string;
      let botPassword: string | null;
      try {
        address = row.address_sealed === 1 ? box.open(row.address) : row.address;
        botPassword = row.bot_password === null ? null : box.open(row.bot_password);
      } catch {
        throw new AppError('CONFLICT', 'The stored secrets of this target cannot be read; enter them again');
      }
      const result = await notifier.send(
        {
          type: row.type,
          address,
          botLoginId: row.bot_login_id,
          botPassword,
          spaceId: row.space_id,
          organizationId,
        },
        { ...testNotificationText(source, clock()), purpose: 'test-notification' },
      );
      await record(p, organizationId, 'notif-target.test', id, ip, {
        status: result.status,
        deliveryId: result.deliveryId,
      });
      return result;
    },
  };
}
