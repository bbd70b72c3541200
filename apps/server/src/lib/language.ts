/** The portal's languages, and which one a request or a mail is in. */
export type Lang = 'ja' | 'en';

const asLang = (v: string | null | undefined): Lang | null => (v === 'ja' || v === 'en' ? v : null);

/**
 * The portal language an `Accept-Language` header prefers: the supported language of the highest
 * weight (`ja-JP`, `en-US` count as `ja` and `en`); null when it names neither. The web app sends its
 * UI language as this header on every API call, so for signed-in requests it is the screen's language.
 */
export function requestLanguage(header: string | string[] | undefined): Lang | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  let best: { lang: Lang; q: number; i: number } | null = null;
  text
    .split(',')
    .slice(0, 20)
    .forEach((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const lang = asLang(tag.trim().toLowerCase().split('-')[0]);
      if (!lang) return;
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      if (!Number.isFinite(q) || q <= 0) return;
      if (!best || q > best.q) best = { lang, q, i };
    });
  return (best as { lang: Lang } | null)?.lang ?? null;
}

/**
 * The language of a mail to an operator: the one they chose, else the one they last used the portal
 * in, else the request's, else Japanese (the product's home market).
 */
export function mailLanguage(...candidates: Array<string | null | undefined>): Lang {
  for (const c of candidates) {
    const lang = asLang(c);
    if (lang) return lang;
  }
  return 'ja';
}
