import type { NotifTarget, NotifTargetInput, NotifTargetLanguage, UpdateNotifTargetBody } from '@portal/contract';
import type { AppContext, Principal } from '../../context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { mask, secretBox } from '../../lib/crypto.ts';
import { outboundFromConfig, type Outbound } from '../../lib/outbound.ts';
import type { Clock } from '../../lib/time.ts';
import { expectVersioned, nextVersion } from '../../lib/versioned.ts';
import { createNotifier, testNotificationText } from '../../services/notifier.ts';
import { assertAdministrator } from './admin-rules.ts';
import { notifTargetRepo, type NotifTargetRow } from './notif-target-repo.ts';
import { organizationRepo } from './organization-repo.ts';
import { scopedOrganization } from './organization-service.ts';
import type { AuditAction } from '@portal/contract';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'audit' | 'config' | 'mailer'>;

/** Webhook and chat-bot URLs carry credentials in the URL itself: they are sealed like passwords. */
const SEALED_ADDRESS_TYPES = new Set([1, 6]);
const SENDABLE_TYPES = new Set([0, 1, 6]);
/** Targets reached over HTTP: their URL is checked at save (and again at every send, lib/outbound.ts). */
const HTTP_TYPES = new Set([1, 6]);

/**
 * Test sends allowed: per target one per 10 s and 10 per hour, per operator 30 per hour (over any
 * number of targets). Kept in this process (a cluster of servers multiplies them, which is still bounded).
 */
export const TEST_SEND_LIMITS = {
  target: { minGapMs: 10_000, perHour: 10 },
  operator: { minGapMs: 0, perHour: 30 },
} as const;

const HOUR_MS = 3_600_000;

/** Sliding-window counters on the app clock: `take` answers false (and counts nothing) when any key is over. */
function throttle(clock: Clock) {
  const hits = new Map<string, number[]>();
  return {
    take(keys: Array<{ key: string; minGapMs: number; perHour: number }>): boolean {
      const now = clock().getTime();
      const recent = keys.map((k) => (hits.get(k.key) ?? []).filter((at) => now - at < HOUR_MS));
      const over = keys.some((k, i) => {
        const list = recent[i]!;
        return list.length >= k.perHour || (list.length > 0 && now - list.at(-1)! < k.minGapMs);
      });
      keys.forEach((k, i) => {
        const list = recent[i]!;
        if (!over) list.push(now);
        if (list.length === 0) hits.delete(k.key);
        else hits.set(k.key, list);
      });
      return !over;
    },
  };
}

/** Notification targets of an organization (optionally of one of its buildings), with sealed secrets. */
export function notifTargetService(ctx: Ctx, deps: { outbound?: Outbound } = {}) {
  const { db, clock, audit } = ctx;
  const outbound = deps.outbound ?? outboundFromConfig(ctx.config);
  const notifier = createNotifier({ ...ctx, outbound });
  const testSends = throttle(clock);
  const box = secretBox(ctx.config.secretKey);
  const rows = notifTargetRepo(db);
  const organizations = organizationRepo(db);

  /** A sealed secret shown masked; one that no longer opens (key changed) shows only the mask. */
  const masked = (sealed: string) => {
    try {
      return mask(box.open(sealed));
    } catch {
      return mask('');
    }
  };

  const toApi = (r: NotifTargetRow): NotifTarget => ({
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
    language: r.language === 'en' ? 'en' : 'ja',
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  async function assertBuildingOf(organizationId: number, buildingId: number | null): Promise<void> {
    if (buildingId === null) return;
    if (!(await rows.buildingOf(organizationId, buildingId))) {
      throw new AppError('VALIDATION_FAILED', 'The building is not one of this organization', [
        { path: 'buildingId', message: 'validation.notFound' },
      ]);
    }
  }

  /**
   * A webhook or chat-bot URL must not point into the server's own network. A name that does not
   * resolve now is accepted (DNS may be down; the send checks again), one that resolves to an
   * internal address is refused.
   */
  async function assertReachable(type: number, address: string): Promise<void> {
    if (!HTTP_TYPES.has(type)) return;
    const checked = await outbound.check(address);
    if (checked.ok || checked.reason === 'unresolvable') return;
    throw new AppError('VALIDATION_FAILED', 'This address cannot be used as a notification target', [
      { path: 'address', message: checked.reason === 'refused-address' ? 'validation.urlForbidden' : 'validation.url' },
    ]);
  }

  /**
   * The language of a new target that names none: an email address that is the login (or email) of
   * one of the organization's operators takes that operator's language; anything else is `ja`.
   */
  async function defaultLanguage(organizationId: number, type: number, address: string): Promise<NotifTargetLanguage> {
    if (type !== 0) return 'ja';
    const lang = await rows.operatorLanguage(organizationId, address);
    return lang?.toLowerCase().startsWith('en') ? 'en' : 'ja';
  }

  /** The organization must be the caller's (404 otherwise), and the target one of its own. */
  async function target(p: Principal, organizationId: number, id: number) {
    await scopedOrganization(organizations, p, organizationId);
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
    ...(body.language === undefined ? {} : { language: body.language }),
  });

  const record = (
    p: Principal,
    organizationId: number,
    action: AuditAction,
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
      await scopedOrganization(organizations, p, organizationId);
      return (await rows.list(organizationId)).map(toApi);
    },

    async get(p: Principal, organizationId: number, id: number): Promise<NotifTarget> {
      assertAdministrator(p);
      return toApi(await target(p, organizationId, id));
    },

    async create(p: Principal, organizationId: number, body: NotifTargetInput, ip: string): Promise<NotifTarget> {
      assertAdministrator(p);
      await scopedOrganization(organizations, p, organizationId);
      await assertBuildingOf(organizationId, body.buildingId);
      await assertReachable(body.type, body.address);
      const now = clock().toISOString();
      const row = await rows.insert({
        organization_id: organizationId,
        ...columns(body),
        language: body.language ?? (await defaultLanguage(organizationId, body.type, body.address)),
        ...sealedAddress(body.type, body.address),
        bot_password: body.botPassword ? box.seal(body.botPassword) : null,
        created_at: now,
        updated_at: now,
      });
      await record(p, organizationId, 'notif-target.create', row.id, ip, {
        type: row.type,
        buildingId: row.building_id,
        language: row.language,
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
      if (body.address !== undefined) await assertReachable(body.type, body.address);
      const address = body.address === undefined ? {} : sealedAddress(body.type, body.address);
      // botPassword: undefined keeps the stored one, '' clears it, anything else replaces it.
      const botPassword =
        body.botPassword === undefined
          ? {}
          : { bot_password: body.botPassword === '' ? null : box.seal(body.botPassword) };
      const written = await rows.updateVersioned(
        organizationId,
        id,
        { ...columns(body), ...address, ...botPassword, updated_at: nextVersion(clock(), current.updated_at) },
        body.updatedAt,
      );
      await expectVersioned(
        written,
        'notification target',
        async () => !!(await rows.one(organizationId, id)),
        () => notFound('Notification target'),
      );
      await record(p, organizationId, 'notif-target.update', id, ip, {
        type: body.type,
        botPassword: body.botPassword === undefined ? 'kept' : body.botPassword === '' ? 'cleared' : 'replaced',
      });
      return toApi((await rows.one(organizationId, id))!);
    },

    async remove(p: Principal, organizationId: number, id: number, ip: string): Promise<void> {
      assertAdministrator(p);
      const gone = await target(p, organizationId, id);
      if (!(await rows.remove(organizationId, id))) throw notFound('Notification target');
      await record(p, organizationId, 'notif-target.delete', id, ip, { name: gone.room });
    },

    /** Sends a test message now and answers what happened (email: stored in the outbox for the mailer). */
    async test(p: Principal, organizationId: number, id: number, ip: string) {
      assertAdministrator(p);
      const org = await scopedOrganization(organizations, p, organizationId);
      const row = await target(p, organizationId, id);
      if (!SENDABLE_TYPES.has(row.type)) throw new AppError('CONFLICT', 'This notification channel is disabled');
      let source = org.name;
      if (row.building_id !== null) {
        const building = await rows.buildingName(row.building_id);
        if (building !== null) source = `${org.name} / ${building}`;
      }
      let address: string;
      let botPassword: string | null;
      try {
        address = row.address_sealed === 1 ? box.open(row.address) : row.address;
        botPassword = row.bot_password === null ? null : box.open(row.bot_password);
      } catch {
        throw new AppError('CONFLICT', 'The stored secrets of this target cannot be read; enter them again');
      }
      const allowed = testSends.take([
        { key: `target:${row.id}`, ...TEST_SEND_LIMITS.target },
        { key: `operator:${p.operatorId}`, ...TEST_SEND_LIMITS.operator },
      ]);
      if (!allowed) throw new AppError('RATE_LIMITED', 'Too many test notifications; try again later');
      const result = await notifier.send(
        {
          type: row.type,
          address,
          botLoginId: row.bot_login_id,
          botPassword,
          spaceId: row.space_id,
          organizationId,
        },
        { ...testNotificationText(source, clock(), row.language === 'en' ? 'en' : 'ja'), purpose: 'test-notification' },
      );
      await record(p, organizationId, 'notif-target.test', id, ip, {
        status: result.status,
        deliveryId: result.deliveryId,
      });
      return result;
    },
  };
}
