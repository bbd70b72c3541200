import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { brokerHookOps, mqttHookAnswerSchema } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { routes, type RouteExtra } from '../../lib/route.ts';
import { robotMayPublish, robotMaySubscribe, robotMayUseClientId } from '../robot-link/broker.ts';

/**
 * Authentication and topic checks for an external MQTT broker (MQTT_URL), so robots sign in there
 * with the credentials the portal issued and stay on their own topics, as with the embedded broker.
 * Speaks the HTTP hooks of mosquitto-go-auth (status 200 = allow) and EMQX (`{ result }`). Enabled
 * by MQTT_AUTH_TOKEN; the broker sends it in the `x-mqtt-auth-token` header. docs/robot-protocol.md.
 * The client id rule is the embedded broker's (`robotMayUseClientId`): a robot signs in only with its
 * own `{manufacturer}-{serialNumber}` (or that with `:suffix`), so it cannot take over another robot's
 * session there either; a hook call without `clientid` is denied.
 */
export const brokerHookRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const token = ctx.config.mqttAuthToken;
  if (!token) return;
  const expected = Buffer.from(token);
  const trusted = (header: unknown) => {
    const given = Buffer.from(typeof header === 'string' ? header : '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const authority = ctx.robotLink.authority;
  const deny = async (reply: { code: (n: number) => { send: (b: unknown) => unknown } }) => {
    await reply.code(403).send({ result: 'deny' });
  };
  const hook: RouteExtra = { hide: true, responses: { 403: mqttHookAnswerSchema } };

  routes(
    app,
    brokerHookOps,
    {
      mqttAuth: async (req, reply) => {
        if (!trusted(req.headers['x-mqtt-auth-token'])) return deny(reply);
        const { username, password, clientid = '' } = req.body;
        const id = await authority.authenticate(username, password);
        if (!id) {
          // Only a client that names itself awaits registration, as with the embedded broker.
          if (username) authority.unknownClient({ username, clientId: clientid, ip: '' });
          return deny(reply);
        }
        if (!robotMayUseClientId(id, clientid)) {
          req.log.warn({ clientId: clientid, username }, 'mqtt client refused: not the robot’s own client id');
          return deny(reply);
        }
        return { result: 'allow' as const };
      },
      mqttAcl: async (req, reply) => {
        if (!trusted(req.headers['x-mqtt-auth-token'])) return deny(reply);
        const { username, topic, acc, action } = req.body;
        const id = await authority.identify(username);
        const publish = action === 'publish' || acc === 2 || acc === 3;
        const allowed = !!id && (publish ? robotMayPublish(id, topic) : robotMaySubscribe(id, topic));
        return allowed ? { result: 'allow' as const } : deny(reply);
      },
    },
    { mqttAuth: hook, mqttAcl: hook },
  );
};
