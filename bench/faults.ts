// Faults: the shop under bad input, slow clients and failing dependencies, on the production build.
//  (a) a bounded fuzz of every /api endpoint, signed out and signed in;
//  (b) 200 slow clients sending their headers a byte at a time while normal requests are timed;
//  (c) the remote catalogue failing (hang, 500, garbage) while pages are requested;
//  (d) the database going away and coming back while requests run (PostgreSQL, through a TCP
//      relay this script cuts and restores, so the real server is never touched).
// It prints requests tried, 4xx, 5xx and whether the server stayed healthy; exits 1 on an
// unexpected 5xx. Usage: npm run bench:faults [-- --short]   (--short: the quick version npm test runs)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { catalogueFailing, databaseAway, type FaultRow, fuzz, request, slowClients, table } from "../test/support/faults.ts";
import { startServer } from "../test/support/server-process.ts";
import { reportRows } from "./report.ts";

const ORIGIN = "http://faults.test";

// `npm run bench:faults [-- --short]`
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const short = process.argv.includes("--short");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-faults-"));
  const server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: "100000" });
  const rows: FaultRow[] = [];
  let healthy = false;
  try {
    rows.push(await fuzz(server.url, short));
    rows.push(await slowClients(server.url, short));
    healthy = (await request(server.url, "/api/health")) === 200;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  rows.push(await catalogueFailing(short));
  const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  rows.push(await databaseAway(databaseUrl, short));
  console.log(table(rows));
  const unexpected = rows.reduce((sum, r) => sum + r.server, 0) + (rows.at(-1)!.note.includes("MISMATCH") ? 1 : 0);
  console.log(`\nunexpected 5xx: ${unexpected}; the server stayed healthy: ${healthy ? "yes" : "no"}`);
  await reportRows([
    { bench: "faults", measure: "unexpected 5xx under fuzzing, slow clients and failing dependencies", value: String(unexpected), target: "0", met: unexpected === 0 },
    { bench: "faults", measure: "healthy afterwards", value: healthy ? "yes" : "no", target: "yes", met: healthy },
  ]);
  process.exit(unexpected === 0 && healthy ? 0 : 1);
}
