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
  /**
   * Optional place in a matrix: figures with both `row` and `column` (e.g. row "(c) operators · cached",
   * column "p99 ms") are printed as one table of rows × columns instead of one line each.
   */
  row?: string;
  column?: string;
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
  const inMatrix = (f: Figure) => f.row !== undefined && f.column !== undefined;
  const matrix = figures.filter(inMatrix);
  if (matrix.length > 0) printMatrix(matrix);
  const rest = figures.filter((f) => !inMatrix(f));
  if (rest.length > 0) {
    console.table(
      rest.map((f) => ({
        figure: f.name,
        value: round(f.value),
        unit: f.unit,
        goal: f.goal ?? '',
        met: f.met === undefined ? '' : f.met ? 'yes' : 'NO',
      })),
    );
  }
  console.log(`written to ${file}`);
  return file;
}

/**
 * Rows × columns of the figures that have both; a figure held to a goal shows "value ✓" or "value ✗",
 * and the goals are listed under the table.
 */
function printMatrix(figures: Figure[]) {
  const rows = new Map<string, Record<string, string | number>>();
  const goals = new Map<string, { goal: string; met: number; of: number }>();
  for (const f of figures) {
    const row = rows.get(f.row!) ?? { '': f.row! };
    rows.set(f.row!, row);
    row[f.column!] = f.met === undefined ? round(f.value) : `${round(f.value)} ${f.met ? '✓' : '✗'}`;
    if (f.goal !== undefined && f.met !== undefined) {
      const key = `${f.column}: ${f.goal}`;
      const g = goals.get(key) ?? { goal: key, met: 0, of: 0 };
      g.of++;
      if (f.met) g.met++;
      goals.set(key, g);
    }
  }
  console.table([...rows.values()]);
  for (const g of goals.values()) console.log(`goal ${g.goal}: met ${g.met} of ${g.of}`);
}
