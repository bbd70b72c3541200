import { existsSync, rmSync } from 'node:fs';
import { readState, STATE_FILE } from './support/state.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // It ended on its own in the meantime.
  }
};

/** Stops the server global-setup started (by its PID: SIGTERM, SIGKILL after 5 s) and removes its data. */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(STATE_FILE)) return;
  const { pid, dataDir } = readState();
  if (alive(pid)) {
    signal(pid, 'SIGTERM');
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) signal(pid, 'SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}
