/** What other modules use of webhooks: the sender (the notification engine) and its event type. */
export {
  createWebhookSender,
  deliverWebhook,
  webhookOutbound,
  webhookPayload,
  webhookSignature,
  type WebhookEvent,
  type WebhookSender,
  type WebhookSenderDeps,
} from './webhook-sender.ts';
export { webhookRepo, type WebhookRow } from './webhook-repo.ts';
export { WEBHOOK_FAILURE_LIMIT } from '@portal/contract';
