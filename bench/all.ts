// `npm run bench`: every bench in turn on the production build (each prints its own detailed
// table as it goes), then one table of the headline figures against their targets.
// Usage: npm run bench [-- --short]   (--short is passed on to the benches that take it)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BenchRow, markdownTable, ROWS_FILE_VARIABLE } from "./report.ts";

const BENCHES = ["http", "checkout", "orders", "faults", "oversell", "admin", "catalogue", "lighthouse"];
const passOn = process.argv.slice(2);
const rowsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-")), "rows.jsonl");
const tsx = path.resolve("node_modules/.bin/tsx");
const started = performance.now();
const failed: string[] = [];

for (const bench of BENCHES) {
  console.log(`\n## bench/${bench}.ts\n`);
  const run = spawnSync(tsx, [`bench/${bench}.ts`, ...passOn], { stdio: "inherit", env: { ...process.env, [ROWS_FILE_VARIABLE]: rowsFile } });
  if (run.status !== 0) failed.push(`${bench} (exit ${run.status ?? run.signal})`);
}

const rows: BenchRow[] = fs.existsSync(rowsFile)
  ? fs
      .readFileSync(rowsFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BenchRow)
  : [];
fs.rmSync(path.dirname(rowsFile), { recursive: true, force: true });

const minutes = (performance.now() - started) / 60_000;
console.log(`\n## Summary\n\n${markdownTable(rows)}\n`);
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${minutes.toFixed(1)} minutes.`,
);
const missed = rows.filter((row) => row.met === false);
if (missed.length) console.log(`Targets missed: ${missed.map((row) => `${row.bench}: ${row.measure}`).join("; ")}.`);
if (failed.length) {
  console.log(`Benches that failed: ${failed.join(", ")}.`);
  process.exitCode = 1;
}
