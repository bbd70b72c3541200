import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CreatedRobot, RobotModel } from '@portal/contract';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface SimProcess {
  readonly pid: number;
  /** Everything the simulator printed so far. */
  output(): string;
  /**
   * Sets a gauge of the simulated world (docs/meter-reading.md, e.g. `floor-1`, `G1`) through the
   * simulator's standard input; resolves once the simulator confirmed it.
   */
  setGauge(mapId: string, gaugeId: string, value: number): Promise<void>;
  /** SIGTERM (robots say OFFLINE), then waits for the process to end. */
  stop(): Promise<void>;
}

/**
 * Runs simulated robots in a child process with teleoperation on (WebRTC video and control), the
 * way `npm start` runs its demo fleet: `npm run sim -- --credentials FILE`. A child process keeps the
 * native WebRTC module out of the test runner. Resolves once every robot is online.
 */
export async function startSimProcess(
  robots: ReadonlyArray<{
    created: CreatedRobot;
    model: RobotModel;
    floorId: number;
    start: { x: number; y: number; theta: number };
    name?: string;
    /**
     * The building-systems API the arm's button presses reach (the simulator's `building` option:
     * apps/robot-sim/src/cli.ts), e.g. the demo building's simulated elevators (its T-Spider link).
     */
    building?: { url: string; token?: string; bank?: string; door?: string; floor?: number };
  }>,
): Promise<SimProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-sim-'));
  const file = path.join(dir, 'robots.json');
  writeFileSync(
    file,
    JSON.stringify(
      robots.map((r) => ({
        brokerUrl: r.created.credentials.mqttUrl,
        username: r.created.credentials.username,
        password: r.created.credentials.password,
        manufacturer: r.created.credentials.manufacturer,
        serialNumber: r.created.credentials.serialNumber,
        model: r.model,
        mapId: `floor-${r.floorId}`,
        start: r.start,
        battery: 90,
        name: r.name ?? r.created.robot.name,
        ...(r.building ? { building: r.building } : {}),
      })),
    ),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/robot-sim/src/cli.ts', '--credentials', file, '--teleop', 'on'],
    // Standard input: gauge values at run time (setGauge).
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator not online within 30 s:\n${out}`)), 30_000);
    const check = () => {
      if ((out.match(/ online$/gm) ?? []).length >= robots.length) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited (${code}):\n${out}`));
    });
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    cleanup();
    throw err;
  });
  return {
    pid: child.pid!,
    output: () => out,
    setGauge(mapId, gaugeId, value) {
      // The simulator answers `gauge floor-1:G1 (GAUGE-1) = 93`.
      const confirmation = `gauge ${mapId}:${gaugeId} `;
      const from = out.length;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.stdout!.off('data', check);
          reject(new Error(`the simulator did not confirm ${mapId}:${gaugeId}=${value} within 10 s:\n${out}`));
        }, 10_000);
        function check() {
          const line = out
            .slice(from)
            .split('\n')
            .find((l) => l.startsWith(confirmation));
          if (!line) return;
          clearTimeout(timer);
          child.stdout!.off('data', check);
          resolve();
        }
        child.stdout!.on('data', check);
        child.stdin!.write(`${mapId}:${gaugeId}=${value}\n`);
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      cleanup();
    },
  };
}
