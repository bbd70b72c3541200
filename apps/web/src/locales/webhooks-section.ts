/** The webhook screens' texts as a lazily loaded section (registered in lib/i18n.ts). */
export const webhooksSection = {
  en: () => import('./en/webhooks').then((m) => m.webhooksEn),
  ja: () => import('./ja/webhooks').then((m) => m.webhooksJa),
};
