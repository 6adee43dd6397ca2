import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { builtPages } from "../../test/support/pages.ts";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";
import { onSqlite } from "../../test/support/database.ts";

// The real process, as `npm start` runs it, over a remote catalogue.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function start(catalogueUrl: string, env: Record<string, string> = {}): Promise<RunningServer> {
  await builtPages(); // fails with a clear message when the build is missing
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-remote-process-"));
  const server = await startServer({ DATA_DIR: dataDir, CATALOGUE_URL: catalogueUrl, ...env });
  cleanups.push(async () => {
    await server.stop("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}

const catalogueHealth = async (server: RunningServer) =>
  ((await (await fetch(`${server.url}/api/health`)).json()) as { catalogue: { state: string; error?: string } }).catalogue;

describe.skipIf(!onSqlite("start-up over a remote catalogue"))("start-up over a remote catalogue", () => {
  it("asks the host at once but does not wait for it: it listens and answers health while the host is silent", async () => {
    const asked: string[] = [];
    const silent = http.createServer((req) => void asked.push(req.url ?? ""));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });
    // A long timeout: the host is still being waited for, however slowly the process starts.
    const server = await start(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, { CATALOGUE_TIMEOUT_MS: "60000" });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await catalogueHealth(server)).toMatchObject({ state: "unavailable", error: "no answer from the catalogue host yet" });
    await expect.poll(() => asked, { timeout: 5_000 }).toEqual(["/products"]);
  });

  it("has the catalogue ready before the first visitor asks", async () => {
    const host = await startFakeCatalogue();
    cleanups.push(() => host.close());
    const server = await start(host.url);
    await expect.poll(() => catalogueHealth(server), { timeout: 5_000 }).toMatchObject({ state: "fresh" });
    expect(host.state.requests).toEqual(["/products"]);
  });
});
