import { operatorTypeSchema, type Session } from '@portal/contract';
import { useSyncExternalStore } from 'react';
import { readItem, storageKeys, writeItem } from './storage';

/** What the browser keeps of the session (spec section 9). */
export type StoredSession = Pick<
  Session,
  'token' | 'id' | 'type' | 'firstName' | 'lastName' | 'organizationId' | 'buildingId' | 'labsEnabled'
>;

const sessionKeys = [
  storageKeys.token,
  storageKeys.id,
  storageKeys.type,
  storageKeys.firstName,
  storageKeys.lastName,
  storageKeys.organizationId,
  storageKeys.buildingId,
  storageKeys.labsEnabled,
] as const;

const toInt = (v: string | null): number | null => {
  if (v === null || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) ? n : null;
};

function readSession(): StoredSession | null {
  const token = readItem(storageKeys.token);
  const id = toInt(readItem(storageKeys.id));
  const type = operatorTypeSchema.safeParse(toInt(readItem(storageKeys.type)));
  const organizationId = toInt(readItem(storageKeys.organizationId));
  if (!token || id === null || !type.success || organizationId === null) return null;
  return {
    token,
    id,
    type: type.data,
    firstName: readItem(storageKeys.firstName) ?? '',
    lastName: readItem(storageKeys.lastName) ?? '',
    organizationId,
    buildingId: toInt(readItem(storageKeys.buildingId)),
    labsEnabled: readItem(storageKeys.labsEnabled) === 'true',
  };
}

let current: StoredSession | null = readSession();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function write(s: StoredSession): void {
  writeItem(storageKeys.token, s.token);
  writeItem(storageKeys.id, String(s.id));
  writeItem(storageKeys.type, String(s.type));
  writeItem(storageKeys.firstName, s.firstName);
  writeItem(storageKeys.lastName, s.lastName);
  writeItem(storageKeys.organizationId, String(s.organizationId));
  writeItem(storageKeys.buildingId, s.buildingId === null ? null : String(s.buildingId));
  writeItem(storageKeys.labsEnabled, String(s.labsEnabled));
}

export const sessionStore = {
  get: (): StoredSession | null => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  save(session: Session): void {
    current = {
      token: session.token,
      id: session.id,
      type: session.type,
      firstName: session.firstName,
      lastName: session.lastName,
      organizationId: session.organizationId,
      buildingId: session.buildingId,
      labsEnabled: session.labsEnabled,
    };
    write(current);
    emit();
  },
  clear(): void {
    sessionKeys.forEach((k) => writeItem(k, null));
    if (current === null) return;
    current = null;
    emit();
  },
  /** Re-read storage (another tab signed in or out). */
  reload(): void {
    current = readSession();
    emit();
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === storageKeys.token) sessionStore.reload();
  });
}

export function useSession(): StoredSession | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
