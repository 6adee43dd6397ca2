import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueFailing, databaseAway, fuzz, slowClients } from "../test/support/faults.ts";
import { builtPages } from "../test/support/pages.ts";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { postgresOrSkip } from "../test/support/checkout.ts";
import { onSqlite } from "../test/support/database.ts";

// The short version of `npm run bench:faults` (bench/faults.ts): no unexpected 5xx, ever.

describe.skipIf(!onSqlite("faults (short)"))("faults (short)", () => {
  let server: RunningServer;
  let dataDir: string;
  beforeAll(async () => {
    await builtPages();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-faults-"));
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: "http://faults.test", AUTH_RATE_LIMIT_MAX: "100000" });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a fuzz of every /api endpoint with 4xx, never 5xx, and stays healthy", async () => {
    const row = await fuzz(server.url, true);
    expect(row.server, JSON.stringify(row)).toBe(0);
    expect(row.client).toBeGreaterThan(row.tried / 2);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 120_000);

  it("keeps answering normal requests beside slow clients", async () => {
    const row = await slowClients(server.url, true);
    expect(row.server, JSON.stringify(row)).toBe(0);
    expect(row.tried).toBeGreaterThan(10);
  }, 60_000);

  it("serves pages without a 5xx while the remote catalogue hangs, errs and answers garbage", async () => {
    const row = await catalogueFailing(true);
    expect(row.server, JSON.stringify(row)).toBe(0);
  }, 120_000);
});

describe("faults (short) on PostgreSQL", () => {
  it("turns health 503 while PostgreSQL is away and 200 when it is back, with no other 5xx and nothing hanging", async (context) => {
    const url = postgresOrSkip(context);
    const row = await databaseAway(url, true);
    expect(row.server, JSON.stringify(row)).toBe(0);
    expect(row.healthWent).toMatch(/^200 → (503 → )+200$/);
    expect(row.writesMatch, row.note).toBe(true);
  }, 120_000);
});
