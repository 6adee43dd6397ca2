import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../test/support/local-cluster.ts";
import { type RunningServer, startServer } from "../test/support/server-process.ts";
import { test } from "./support.ts";

/**
 * A shop of the journeys' own (its own data folder, so its own database), for journeys that change
 * the catalogue the other journeys read. Called inside a describe block: the shop starts before its
 * tests and stops after them. `prepare` runs on the data folder first, before the shop starts (a
 * catalogue loaded while it is stopped, as the README says to on SQLite).
 */
export function ownShop(name: string, env: Record<string, string> = {}, prepare?: (dataDir: string) => void): { url(): string; dataDir(): string } {
  let shop: RunningServer | null = null;
  let dataDir = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `storefront-e2e-${name}-`));
    prepare?.(dataDir);
    const port = await freePort();
    shop = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, AUTH_RATE_LIMIT_MAX: "1000", ...env });
    shop.process.stdout!.removeAllListeners("data").resume();
  });

  test.afterAll(async () => {
    await shop?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  return { url: () => shop!.url, dataDir: () => dataDir };
}
