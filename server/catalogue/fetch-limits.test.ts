import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../../test/support/logger.ts";
import { fakeStoreProducts } from "../../test/support/fakestore-host.ts";
import { CatalogueUnavailableError } from "./catalogue.ts";
import { MAX_CATALOGUE_BYTES } from "./fetch-json.ts";
import { RemoteCatalogue } from "./remote.ts";

// The remote catalogue's answer is capped at 10 MB (read as it streams, then dropped), and its
// redirects are not followed to another host.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: http.RequestListener, host = "127.0.0.1"): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const catalogueAt = (baseUrl: string) => new RemoteCatalogue({ baseUrl, timeoutMs: 5_000, cacheSeconds: 60, log: memoryLogger().log });
const products = JSON.stringify(fakeStoreProducts());

describe("the remote catalogue's fetches", () => {
  it("does not follow a redirect to another host", async () => {
    const asked: string[] = [];
    // The same machine under another name: another host, as far as the catalogue can tell.
    const elsewhere = await serve((req, res) => {
      asked.push(req.url ?? "");
      res.end(products);
    }, "localhost");
    const base = await serve((_req, res) => res.writeHead(302, { location: `${elsewhere}/products` }).end());
    const catalogue = catalogueAt(base);
    await expect(catalogue.list()).rejects.toThrow(CatalogueUnavailableError);
    expect(catalogue.health()).toMatchObject({ state: "unavailable", error: expect.stringContaining("redirected to another host") });
    expect(asked).toEqual([]);
  });

  it("follows a redirect on the same host", async () => {
    const base = await serve((req, res) => {
      if (req.url === "/products") res.writeHead(301, { location: "/v2/products" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(products);
    });
    expect(await catalogueAt(base).list()).toHaveLength(20);
  });

  it.each([false, true])("drops an answer over 10 MB as it streams (Content-Length stated: %s), without reading it all", async (stated) => {
    let finished = false;
    const base = await serve(async (_req, res) => {
      const chunk = Buffer.alloc(1024 * 1024, " ");
      res.writeHead(200, { "content-type": "application/json", ...(stated ? { "content-length": String(50 * chunk.length + 2) } : {}) });
      res.write("[");
      for (let i = 0; i < 50; i++) {
        if (res.destroyed) return;
        if (!res.write(chunk)) await drainedOrClosed(res);
      }
      res.end("]");
      finished = true;
    });
    const catalogue = catalogueAt(base);
    await expect(catalogue.list()).rejects.toThrow(CatalogueUnavailableError);
    expect(catalogue.health()).toMatchObject({ error: `Catalogue request /products failed: response larger than ${MAX_CATALOGUE_BYTES} bytes; dropped` });
    expect(finished).toBe(false);
  });
});

/** Resolves once `res` can take more or has closed, leaving no listener behind either way. */
function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });
}
