import { paths } from '@/config/paths';

/** Only same-origin relative paths are honoured as a post-login target; anything else lands on robot control. */
export function safeRedirect(target: string | null | undefined): string {
  const fallback = paths.robot.control.getHref();
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if ([...target].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  if (target.startsWith(paths.auth.root.path)) return fallback;
  try {
    const url = new URL(target, 'http://portal.invalid');
    if (url.origin !== 'http://portal.invalid') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
