import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** One measured figure of a benchmark, with the goal it is held to (if any). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The goal in words, e.g. "p99 < 25 ms". */
  goal?: string;
  met?: boolean;
}

export interface BenchResults {
  name: string;
  date: string;
  machine: { cpus: number; node: string; platform: string };
  figures: Figure[];
}

/** `bench/results/` (ignored by git). */
export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));

/** Rounds for display: 3 significant decimals below 10, 1 decimal below 1000, whole numbers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 10 ? 1 : 3;
  return Number(value.toFixed(digits));
}

/**
 * Writes `bench/results/<name>.json` and prints the figures as a table. Returns the file's path.
 * Every benchmark reports through this, so results have one shape.
 */
export function writeResults(name: string, figures: Figure[]): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`Bad results name: ${name}`);
  const results: BenchResults = {
    name,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, platform: process.platform },
    figures,
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = `${resultsDir}${name}.json`;
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');

  console.log(
    `\n${name} — ${results.date} — ${results.machine.cpus} CPUs, Node ${results.machine.node}, ${results.machine.platform}`,
  );
  console.table(
    figures.map((f) => ({
      figure: f.name,
      value: round(f.value),
      unit: f.unit,
      goal: f.goal ?? '',
      met: f.met === undefined ? '' : f.met ? 'yes' : 'NO',
    })),
  );
  console.log(`written to ${file}`);
  return file;
}
