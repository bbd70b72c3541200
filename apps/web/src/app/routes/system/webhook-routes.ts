import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { loadSection } from '@/lib/i18n';

/** A screen and the webhooks section's texts, downloaded together. */
const withWebhookTexts =
  <M>(load: () => Promise<M>) =>
  async (): Promise<M> => {
    const [mod] = await Promise.all([load(), loadSection('webhooks')]);
    return mod;
  };

/** /system/webhooks/list, create and {id} (spec section 2), for system administrators. */
export const webhookRoutes: RouteObject[] = [
  { path: paths.system.webhookList.path, lazy: withWebhookTexts(() => import('./webhook-list')) },
  { path: paths.system.webhookCreate.path, lazy: withWebhookTexts(() => import('./webhook-create')) },
  { path: paths.system.webhookDetail.path, lazy: withWebhookTexts(() => import('./webhook-detail')) },
];
