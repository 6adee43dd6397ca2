// One row of `npm run bench`'s table. Each bench prints its own detailed table and, when run by
// bench/all.ts, also hands back its headline figures as rows, so one command prints one table.

export interface BenchRow {
  /** The bench that measured it: "http", "lighthouse", "checkout"... */
  bench: string;
  /** What was measured, e.g. "GET / req/s ratio to raw". */
  measure: string;
  /** The measured value as printed, with its unit, e.g. "0.82" or "312 checkouts/s". */
  value: string;
  /** The target as printed, e.g. ">= 0.7", or "" when the figure has none. */
  target: string;
  /** Whether the target is met; null when there is no target. */
  met: boolean | null;
}

/** Where bench/all.ts asks a bench to leave its rows (JSON lines); unset when a bench runs alone. */
export const ROWS_FILE_VARIABLE = "BENCH_ROWS_FILE";

/** Hands `rows` to bench/all.ts when it is the caller; a no-op otherwise. */
export async function reportRows(rows: BenchRow[]): Promise<void> {
  const file = process.env[ROWS_FILE_VARIABLE];
  if (!file) return;
  const fs = await import("node:fs");
  fs.appendFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
}

export function markdownTable(rows: BenchRow[]): string {
  const lines = ["| bench | measure | value | target | met |", "|---|---|---|---|---|"];
  for (const row of rows) lines.push(`| ${row.bench} | ${row.measure} | ${row.value} | ${row.target} | ${row.met === null ? "" : row.met ? "yes" : "NO"} |`);
  return lines.join("\n");
}
