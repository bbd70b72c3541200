import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { LinkTransport } from './transport.ts';
import type { RegistryChange } from './types.ts';

/**
 * Server-internal topic: a registry change made on one server reaches the others at once
 * (docs/architecture-decisions.md: events between server instances go through the broker).
 */
export const REGISTRY_TOPIC = 'portal/v1/registry';
/** Server-internal topic: teleoperation lock claims between server instances (modules/teleop). */
export const TELEOP_SHARE_TOPIC = 'portal/v1/teleop';
/** Server-internal topic: an operator's rights or sessions changed (their open WebSockets re-check). */
export const OPERATOR_TOPIC = 'portal/v1/operators';
export const CLUSTER_TOPICS = [REGISTRY_TOPIC, TELEOP_SHARE_TOPIC, OPERATOR_TOPIC] as const;

const registryMessage = z.object({
  origin: z.string(),
  change: z.object({
    kind: z.enum(['created', 'updated', 'credentials', 'deleted']),
    robotId: z.number().int(),
  }),
});
const teleopMessage = z.object({ origin: z.string(), message: z.unknown() });
const operatorMessage = z.object({ origin: z.string(), operatorId: z.number().int() });

/**
 * The messages between server instances on the same broker: registry changes and teleoperation
 * lock claims. Each names its origin; a server ignores its own.
 */
export function createClusterBus(deps: {
  transport: Pick<LinkTransport, 'publish'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  instanceId: string;
  /** Another server's registry change. */
  onRegistryChange(change: RegistryChange): void;
  /** Another server's teleop lock message (unchecked: the teleop service parses it). */
  onTeleopShared(shared: { origin: string; message: unknown }): void;
  /** Another server's "operator changed" (modules/realtime). */
  onOperatorChanged?(operatorId: number): void;
}) {
  const { transport, log, instanceId } = deps;

  function onRegistryMessage(payload: Buffer) {
    let parsed: z.infer<typeof registryMessage>;
    try {
      parsed = registryMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      log.warn('registry message dropped: malformed');
      return;
    }
    if (parsed.origin === instanceId) return;
    deps.onRegistryChange(parsed.change);
  }

  function onTeleopMessage(payload: Buffer) {
    let parsed: { origin: string; message: unknown };
    try {
      parsed = teleopMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      log.warn('teleop share message dropped: malformed');
      return;
    }
    if (parsed.origin === instanceId) return;
    deps.onTeleopShared({ origin: parsed.origin, message: parsed.message });
  }

  function onOperatorMessage(payload: Buffer) {
    let parsed: z.infer<typeof operatorMessage>;
    try {
      parsed = operatorMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      log.warn('operator message dropped: malformed');
      return;
    }
    if (parsed.origin === instanceId) return;
    deps.onOperatorChanged?.(parsed.operatorId);
  }

  return {
    /** Handles a message of a cluster topic; false when the topic is not one. */
    receive(topic: string, payload: Buffer): boolean {
      if (topic === REGISTRY_TOPIC) onRegistryMessage(payload);
      else if (topic === TELEOP_SHARE_TOPIC) onTeleopMessage(payload);
      else if (topic === OPERATOR_TOPIC) onOperatorMessage(payload);
      else return false;
      return true;
    },
    /** Tells the other servers of a registry change made here (a failure is logged, not thrown). */
    async shareRegistryChange(change: RegistryChange): Promise<void> {
      await transport
        .publish(REGISTRY_TOPIC, JSON.stringify({ origin: instanceId, change }), 1)
        .catch((err: unknown) => log.warn({ err }, 'registry change not shared with other servers'));
    },
    /** Tells the other servers that an operator changed (a failure is logged, not thrown). */
    async shareOperatorChange(operatorId: number): Promise<void> {
      await transport
        .publish(OPERATOR_TOPIC, JSON.stringify({ origin: instanceId, operatorId }), 1)
        .catch((err: unknown) => log.warn({ err }, 'operator change not shared with other servers'));
    },
    /** Sends a teleop lock message to the other servers. */
    async shareTeleop(message: unknown): Promise<void> {
      await transport.publish(TELEOP_SHARE_TOPIC, JSON.stringify({ origin: instanceId, message }), 1);
    },
  };
}
