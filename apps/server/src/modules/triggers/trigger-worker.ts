import { randomUUID } from 'node:crypto';
import { OperatorType, triggerTargetSchema, type RobotStatusCodeValue, type TriggerTarget } from '@portal/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Principal } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { Outbound } from '../../lib/outbound.ts';
import type { Clock } from '../../lib/time.ts';
import { runRepo } from '../flow-runs/run-repo.ts';
import type { FlowRunService } from '../flow-runs/run-service.ts';
import type { NotificationEventInput, NotifyResult } from '../notifications/notification-engine.ts';
import { reportRepo } from '../reports/report-repo.ts';
import type { RobotLink } from '../robot-link/types.ts';
import { createWebhookSender } from '../webhooks/index.ts';
import { triggerRepo } from './trigger-repo.ts';
import type { TriggerFiringRow, TriggerRow } from './trigger-tables.ts';

export interface TriggerWorkerDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: { error: (o: object, m: string) => void; warn: (o: object, m: string) => void };
  config: Pick<Config, 'notifyTickMs' | 'notifyMaxAttempts' | 'notifyRetryBaseMs' | 'secretKey' | 'outboundAllowHosts'>;
  /** The flow runner's start (as the schedule dispatcher starts runs). */
  runs: Pick<FlowRunService, 'start'>;
  robotLink: Pick<RobotLink, 'live' | 'busy'>;
  /** The notification engine's notifyEvent. */
  notify: (input: NotificationEventInput) => Promise<NotifyResult | null>;
  /** HTTP of web API targets; default: the webhooks' own. */
  webhookOutbound?: Outbound;
  /** How long a claimed firing is held before another server may take it over (default 60 s). */
  leaseMs?: number;
}

/** The principal flow runs of triggers are started as (recorded with started_by null). */
const triggerPrincipal = (organizationId: number): Principal => ({
  sessionId: 0,
  operatorId: 0,
  organizationId,
  buildingId: null,
  type: OperatorType.systemAdmin,
  language: null,
  email: '',
  firstName: 'trigger',
  lastName: '',
  labsEnabled: false,
});

/** An outcome that is not tried again. */
class Final extends Error {}

const RETRY_CAP_MS = 60 * 60_000;

interface EventFacts {
  occurredAt: string;
  level: number;
  params: { robotName?: string | null; buildingName?: string | null; message?: string | null; details?: object };
}

/**
 * The trigger worker (docs/api-triggers.md "Firing"): every tick it claims pending firings by a
 * conditional update of their lease (one server wins; a lease whose server died runs out and is taken
 * over), carries out each firing's target action and settles it while it still holds the lease:
 * `done` with what it made (the flow run, the notification event, the report, the webhook delivery)
 * or `failed` with the error. A flow start is marked (`stage = starting`) before it is asked for, so
 * a server taking over a firing whose server died mid-start does not start a second run (it fails
 * the firing instead). Notifications, reports and webhook calls are keyed by the firing (dedupe key,
 * the report's run id, the event id receivers deduplicate by): doing one again does not double it.
 */
export function createTriggerWorker(deps: TriggerWorkerDeps) {
  const { db, clock, log, config } = deps;
  const repo = triggerRepo(db);
  const runRows = runRepo(db);
  const webhooks = createWebhookSender({ db, clock, config, outbound: deps.webhookOutbound });
  const instanceId = randomUUID();
  const leaseMs = deps.leaseMs ?? 60_000;
  const iso = (d: Date) => d.toISOString();
  let closed = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  const eventText = (f: TriggerFiringRow, e: EventFacts | null) =>
    [
      `${f.trigger_name}: ${f.event_kind}`,
      e?.params.robotName ? `robot ${e.params.robotName}` : null,
      e?.params.buildingName ? `building ${e.params.buildingName}` : null,
      e?.params.message ?? null,
    ]
      .filter((s) => s)
      .join(' / ');

  async function eventOf(f: TriggerFiringRow): Promise<EventFacts | null> {
    const e = await repo.event(f.event_id);
    if (!e) return null;
    return { occurredAt: e.occurred_at, level: e.level, params: JSON.parse(e.params) as EventFacts['params'] };
  }

  /** Starts the flow on the chosen robot; answers the run and its robot. */
  async function startFlow(f: TriggerFiringRow, t: TriggerTarget): Promise<{ runId: number; robotId: number }> {
    const p = triggerPrincipal(f.organization_id);
    const flowId = t.flowId;
    if (!flowId) throw new Final('The trigger names no flow');
    const start = async (robotId: number) => {
      if (!(await repo.setStage(f.id, instanceId, 'starting'))) throw new Final('The firing was taken over');
      const run = await deps.runs.start(p, flowId, robotId, { startedBy: null });
      return { runId: run.id, robotId };
    };
    if (t.robotChoice === 'eventRobot') {
      if (f.robot_id === null) throw new Final('The event has no robot');
      return start(f.robot_id);
    }
    if (t.robotChoice === 'robot') {
      if (!t.robotId) throw new Final('The trigger names no robot');
      return start(t.robotId);
    }
    // Another idle online robot of the building: the first (by id) that starts the flow.
    const problems: string[] = [];
    for (const r of await repo.robotsOfBuilding(f.building_id, f.robot_id)) {
      const live = deps.robotLink.live({ id: r.id, status: r.status as RobotStatusCodeValue });
      if (!live.online || deps.robotLink.busy(r.id) || (await runRows.activeOfRobot(r.id))) continue;
      try {
        return await start(r.id);
      } catch (err) {
        if (err instanceof Final) throw err;
        problems.push(`${r.id}: ${(err as Error).message}`);
      }
    }
    throw new Final(
      problems.length > 0
        ? `No other robot of the building could start the flow (${problems.join('; ')})`.slice(0, 500)
        : 'No other idle online robot in the building',
    );
  }

  /** A report entry for the event (type 0, caller trigger, one detail describing it). */
  async function writeReport(f: TriggerFiringRow, e: EventFacts | null): Promise<number> {
    const existing = await repo.reportOfFiring(f.id);
    if (existing !== null) return existing;
    const facts = await repo.reportFacts(f.building_id, f.robot_id);
    const at = e?.occurredAt ?? f.created_at;
    return db.transaction().execute((trx) =>
      reportRepo(trx).insert(
        {
          // Reports are keyed by their run; a trigger's entry has none, so it takes the firing's id, negated.
          flow_run_id: -f.id,
          organization_id: f.organization_id,
          building_id: f.building_id,
          building_name: facts?.building_name ?? '',
          floor_id: facts?.floor_id ?? null,
          floor_name: facts?.floor_name ?? '',
          robot_id: f.robot_id,
          robot_name: facts?.robot_name ?? '',
          robot_serial: facts?.serial_no ?? '',
          flow_id: null,
          flow_name: f.trigger_name,
          type: 0,
          caller: 'trigger',
          caller_name: null,
          schedule_id: null,
          started_at: at,
          ended_at: at,
          result: 10,
          error_code: null,
          abnormal_count: 1,
          photo_count: 0,
          detail_count: 1,
          thumbnail_file_key: null,
        },
        [
          {
            seq: 1,
            step_id: 'trigger',
            kind: 'taskEvent',
            type: 12,
            result: 1,
            started_at: at,
            ended_at: at,
            error_code: null,
            message: eventText(f, e).slice(0, 1000),
            values_json: JSON.stringify({
              event: f.event_kind,
              eventId: f.event_id,
              level: e?.level ?? null,
              ...((e?.params.details ?? {}) as Record<string, unknown>),
            }),
            photo_file_key: null,
            photo_thumb_key: null,
            photo_width: null,
            photo_height: null,
            camera: null,
            floor_id: facts?.floor_id ?? null,
            x: null,
            y: null,
          },
        ],
        [],
      ),
    );
  }

  type Outcome = Partial<
    Pick<
      TriggerFiringRow,
      'flow_run_id' | 'run_robot_id' | 'report_id' | 'notification_event_id' | 'webhook_delivery_id'
    >
  >;

  async function act(f: TriggerFiringRow, trigger: TriggerRow | undefined): Promise<Outcome> {
    if (!trigger) throw new Final('The trigger no longer exists');
    const t = triggerSchemaOf(trigger);
    const e = await eventOf(f);
    switch (trigger.target_type) {
      case 0: {
        const r = await startFlow(f, t);
        return { flow_run_id: r.runId, run_robot_id: r.robotId };
      }
      case 1: {
        const r = await deps.notify({
          kind: 'taskEvent',
          organizationId: f.organization_id,
          buildingId: f.building_id,
          robotId: f.robot_id,
          level: (t.level ?? 9) as 0 | 5 | 9,
          message: t.message || eventText(f, e),
          details: { trigger: f.trigger_name, event: f.event_kind },
          targetIds: t.targetIds,
          groupKey: `trigger:${trigger.id}`,
          // A firing carried out again (its server died after notifying) is not notified twice.
          dedupeKey: `trigger:firing:${f.id}`,
        });
        return { notification_event_id: r?.eventId ?? null };
      }
      case 2:
        return { report_id: await writeReport(f, e) };
      case 3: {
        if (!t.webhookId) throw new Final('The trigger names no webhook');
        const r = await webhooks
          .deliverWebhook(
            t.webhookId,
            {
              id: `trigger-firing-${f.id}`,
              type: `trigger.${f.event_kind}`,
              occurredAt: e?.occurredAt ?? f.created_at,
              level: ((e?.level ?? 0) >= 9 ? 9 : (e?.level ?? 0) >= 5 ? 5 : 0) as 0 | 5 | 9,
              text: eventText(f, e),
              data: {
                triggerId: trigger.id,
                triggerName: f.trigger_name,
                firingId: f.id,
                eventId: f.event_id,
                event: f.event_kind,
                organizationId: f.organization_id,
                buildingId: f.building_id,
                robotId: f.robot_id,
                ...(e?.params ?? {}),
              },
            },
            { purpose: 'trigger' },
          )
          .catch((err: unknown) => {
            throw new Final((err as Error).message);
          });
        if (r.status === 'skipped') throw new Final('The webhook is disabled or in error');
        if (r.status === 'failed') throw Object.assign(new Error(r.error ?? 'failed'), { deliveryId: r.deliveryId });
        return { webhook_delivery_id: r.deliveryId };
      }
      default:
        throw new Final('Unknown target type');
    }
  }

  /** Carries out one claimed firing and settles it (only while this server still holds it). */
  async function run(id: number): Promise<void> {
    const f = await repo.firing(id);
    if (!f || f.lease_owner !== instanceId) return;
    const done = iso(clock());
    if (f.stage === 'starting') {
      // Its server died while starting the flow: whether the run started is unknown, so not again.
      await repo.settle(id, instanceId, {
        status: 'failed',
        stage: null,
        error: 'Interrupted while starting the flow; not started again',
        done_at: done,
      });
      return;
    }
    try {
      const outcome = await act(f, await repo.anyById(f.trigger_id ?? -1));
      await repo.settle(id, instanceId, {
        status: 'done',
        stage: null,
        error: null,
        done_at: iso(clock()),
        ...outcome,
      });
    } catch (err) {
      const error = ((err as Error).message || 'failed').slice(0, 500);
      const final = err instanceof Final || f.target_type === 0 || f.attempts >= config.notifyMaxAttempts;
      const deliveryId = (err as { deliveryId?: number | null }).deliveryId ?? null;
      if (final) {
        await repo.settle(id, instanceId, {
          status: 'failed',
          stage: null,
          error,
          done_at: iso(clock()),
          webhook_delivery_id: deliveryId,
        });
        return;
      }
      const delay = Math.min(RETRY_CAP_MS, config.notifyRetryBaseMs * 2 ** (f.attempts - 1));
      await repo.settle(id, instanceId, {
        status: 'pending',
        error,
        next_attempt_at: iso(new Date(clock().getTime() + delay)),
        webhook_delivery_id: deliveryId,
      });
    }
  }

  async function round(): Promise<void> {
    for (let i = 0; i < 20 && !closed; i += 1) {
      const now = clock();
      const due = await repo.claimable(iso(now), 50);
      if (due.length === 0) return;
      let claimed = 0;
      for (const { id } of due) {
        if (closed) return;
        const at = clock();
        if (!(await repo.claim(id, instanceId, iso(at), iso(new Date(at.getTime() + leaseMs))))) continue;
        claimed += 1;
        await run(id).catch((err: unknown) => log.error({ err, firingId: id }, 'trigger firing not carried out'));
      }
      if (claimed === 0 || due.length < 50) return;
    }
  }

  /** One round now (or right after the running one); resolves when it is done. */
  function tick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      try {
        do {
          again = false;
          await round();
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, 'trigger round failed');
      } finally {
        ticking = null;
      }
    })();
    return ticking;
  }

  const timer = config.notifyTickMs > 0 ? setInterval(() => void tick(), config.notifyTickMs) : null;
  timer?.unref();

  return {
    instanceId,
    tick,
    /** Looks for pending firings at once (after an event fired triggers), unless ticks are off. */
    kick(): void {
      if (timer) void tick();
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await ticking;
    },
  };
}
export type TriggerWorker = ReturnType<typeof createTriggerWorker>;

const triggerSchemaOf = (t: TriggerRow): TriggerTarget => triggerTargetSchema.parse(JSON.parse(t.target));
