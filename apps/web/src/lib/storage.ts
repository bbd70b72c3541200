/**
 * Browser-stored keys (spec section 9). Everything the portal keeps in the browser lives under
 * the `portal.` prefix so it is easy to find and to clear.
 */
export const storageKeys = {
  token: 'portal.token',
  id: 'portal.id',
  type: 'portal.type',
  firstName: 'portal.firstName',
  lastName: 'portal.lastName',
  organizationId: 'portal.organizationId',
  buildingId: 'portal.buildingId',
  labsEnabled: 'portal.labsEnabled',
  universalDesign: 'portal.universalDesign',
  language: 'portal.language',
  colorScheme: 'portal.colorScheme',
  labsConfirmHiddenPrefix: 'portal.labsConfirmHidden.',
} as const;

export function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives only in memory.
  }
}

export const universalDesign = {
  get: (): boolean => readItem(storageKeys.universalDesign) === 'true',
  set: (on: boolean): void => writeItem(storageKeys.universalDesign, String(on)),
};

/** "Do not show again" of the per-feature labs warning dialog. */
export const labsConfirm = {
  isHidden: (feature: string): boolean => readItem(storageKeys.labsConfirmHiddenPrefix + feature) === 'true',
  hide: (feature: string): void => writeItem(storageKeys.labsConfirmHiddenPrefix + feature, 'true'),
};
