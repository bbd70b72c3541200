import { z } from 'zod';
import { registrationRequestBodySchema } from '../../auth.ts';
import { skywayKeySchema } from '../../my.ts';
import { defineOperations } from '../operation.ts';

/** Health (503 with the error body while starting or stopping), registration requests and keys. */
export const publicOps = defineOperations('system', {
  health: {
    method: 'GET',
    path: '/health',
    access: 'public',
    responses: { 200: z.object({ status: z.literal('ok') }) },
  },
  /** Stored and mailed to every active system administrator. */
  requestRegistration: {
    method: 'POST',
    path: '/registration-requests',
    tags: ['auth'],
    access: 'public',
    body: registrationRequestBodySchema,
    responses: { 202: z.null() },
  },
  getSkywayKey: {
    method: 'GET',
    path: '/keys/skyway',
    tags: ['keys'],
    access: 'user',
    responses: { 200: skywayKeySchema },
  },
});

/**
 * The HTTP auth hooks an external MQTT broker calls (MQTT_URL, enabled by MQTT_AUTH_TOKEN, sent in
 * the `x-mqtt-auth-token` header): mosquitto-go-auth (status 200 = allow) and EMQX (`{ result }`).
 * Server to broker, so public (the token is checked by the handler), and left out of the document.
 */
export const mqttAuthBodySchema = z.looseObject({
  username: z.string().max(200).default(''),
  password: z.string().max(500).default(''),
  clientid: z.string().max(200).optional(),
});
/** go-auth: `acc` 1 read, 2 write, 3 read+write, 4 subscribe; EMQX: `action` publish or subscribe. */
export const mqttAclBodySchema = z.looseObject({
  username: z.string().max(200).default(''),
  topic: z.string().min(1).max(500),
  acc: z.coerce.number().int().optional(),
  action: z.enum(['publish', 'subscribe']).optional(),
});
/** Allowed (200) or denied (403, the same body). */
export const mqttHookAnswerSchema = z.object({ result: z.enum(['allow', 'deny']) });

export const brokerHookOps = defineOperations('broker', {
  mqttAuth: {
    method: 'POST',
    path: '/mqtt/auth',
    access: 'public',
    body: mqttAuthBodySchema,
    responses: { 200: mqttHookAnswerSchema },
  },
  mqttAcl: {
    method: 'POST',
    path: '/mqtt/acl',
    access: 'public',
    body: mqttAclBodySchema,
    responses: { 200: mqttHookAnswerSchema },
  },
});
