import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { robotMayPublish, robotMaySubscribe } from '../robot-link/broker.ts';

/**
 * Authentication and topic checks for an external MQTT broker (MQTT_URL), so robots sign in there
 * with the credentials the portal issued and stay on their own topics, as with the embedded broker.
 * Speaks the HTTP hooks of mosquitto-go-auth (status 200 = allow) and EMQX (`{ result }`). Enabled
 * by MQTT_AUTH_TOKEN; the broker sends it in the `x-mqtt-auth-token` header. docs/robot-protocol.md.
 */
const authBody = z.looseObject({
  username: z.string().max(200).default(''),
  password: z.string().max(500).default(''),
  clientid: z.string().max(200).optional(),
});
/** go-auth: `acc` 1 read, 2 write, 3 read+write, 4 subscribe; EMQX: `action` publish or subscribe. */
const aclBody = z.looseObject({
  username: z.string().max(200).default(''),
  topic: z.string().min(1).max(500),
  acc: z.coerce.number().int().optional(),
  action: z.enum(['publish', 'subscribe']).optional(),
});
const answer = z.object({ result: z.enum(['allow', 'deny']) });

export const brokerHookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const token = ctx.config.mqttAuthToken;
  if (!token) return;
  const expected = Buffer.from(token);
  const trusted = (header: unknown) => {
    const given = Buffer.from(typeof header === 'string' ? header : '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const authority = ctx.robotLink.authority;

  app.post(
    '/mqtt/auth',
    {
      config: { access: 'public' },
      schema: { hide: true, body: authBody, response: { 200: answer, 403: answer } },
    },
    async (req, reply) => {
      if (!trusted(req.headers['x-mqtt-auth-token'])) return reply.code(403).send({ result: 'deny' });
      const id = await authority.authenticate(req.body.username, req.body.password);
      if (!id) {
        authority.unknownClient({ username: req.body.username, clientId: req.body.clientid ?? '', ip: '' });
        return reply.code(403).send({ result: 'deny' });
      }
      return { result: 'allow' as const };
    },
  );

  app.post(
    '/mqtt/acl',
    {
      config: { access: 'public' },
      schema: { hide: true, body: aclBody, response: { 200: answer, 403: answer } },
    },
    async (req, reply) => {
      if (!trusted(req.headers['x-mqtt-auth-token'])) return reply.code(403).send({ result: 'deny' });
      const { username, topic, acc, action } = req.body;
      const id = await authority.identify(username);
      const publish = action === 'publish' || acc === 2 || acc === 3;
      const allowed = !!id && (publish ? robotMayPublish(id, topic) : robotMaySubscribe(id, topic));
      return allowed ? { result: 'allow' as const } : reply.code(403).send({ result: 'deny' });
    },
  );
};
