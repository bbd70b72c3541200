import { buildPath, toApiError, type Operation } from '@portal/contract';
import { apiBase } from '@/config/env';
import { sessionStore } from '@/lib/session';

/** The name in a `Content-Disposition` header (`filename*=UTF-8''...` first), if any. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      return star[1].trim();
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a file operation's answer (an export, a template) with the session's bearer token: the
 * typed client reads answers as text, which would spoil the bytes of a workbook. Rejects with the
 * server's ApiError (409 while an export runs, 404 once expired).
 */
export async function downloadFile(op: Operation, id: number, fallbackName: string): Promise<void> {
  const token = sessionStore.get()?.token;
  const res = await fetch(`${apiBase()}${buildPath(op.path, { id })}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!res.ok) {
    const text = await res.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text) as unknown;
    } catch {
      // not JSON: the status alone
    }
    throw toApiError(res.status, data);
  }
  saveBlob(await res.blob(), fileNameOf(res.headers.get('content-disposition')) ?? fallbackName);
}

/** Downloads a photo by its (signed) URL under a given name. */
export async function downloadUrl(url: string, name: string): Promise<void> {
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok) throw toApiError(res.status, null);
  saveBlob(await res.blob(), name);
}
