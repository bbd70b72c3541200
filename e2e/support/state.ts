import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where screenshots and the run's state live (git-ignored); E2E_ARTIFACTS_DIR moves them, so two runs
 * on one machine (with `--output` apart too) do not share a state file and stop each other's server.
 */
export const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR
  ? path.resolve(process.env.E2E_ARTIFACTS_DIR)
  : path.join(import.meta.dirname, '..', '.artifacts');
/** Written by global-setup, read by the tests and global-teardown. */
export const STATE_FILE = path.join(ARTIFACTS_DIR, 'server.json');

export interface E2eState {
  baseUrl: string;
  pid: number;
  dataDir: string;
  logFile: string;
  /** Where the local SMTP server writes the mails it receives (support/smtp.ts receivedMails). */
  mailDir: string;
}

export function readState(): E2eState {
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
}

/** The server's base URL: the environment global-setup set, else the state file it wrote. */
export function baseUrl(): string {
  return process.env.E2E_BASE_URL ?? readState().baseUrl;
}

/** The system administrator global-setup creates through ADMIN_EMAIL and ADMIN_PASSWORD. */
export const E2E_ADMIN = { loginId: 'e2e-admin@example.com', password: 'E2e-Admin-Pass1' } as const;
