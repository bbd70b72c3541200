import { z } from 'zod';

const envSchema = z.object({
  VITE_API_BASE: z.string().min(1).default('/api'),
  VITE_SUPPORT_URL: z.string().min(1).default('mailto:support@robot-portal.example'),
});

function parseEnv() {
  const result = envSchema.safeParse(import.meta.env);
  if (!result.success) {
    // List every problem at once (STYLE.md).
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid web configuration:\n${problems}`);
  }
  return result.data;
}

export const env = parseEnv();

/**
 * The API base: the server writes its `API_BASE` into the page it serves
 * (`<meta name="portal-api-base">`), so one build works under any base; the build-time value is
 * the fallback (Vite dev server, tests).
 */
export function apiBase(): string {
  const fromServer =
    typeof document === 'undefined'
      ? null
      : document.querySelector<HTMLMetaElement>('meta[name="portal-api-base"]')?.content;
  return (fromServer || env.VITE_API_BASE).replace(/\/$/, '');
}
