import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { testApp } from "./app.ts";
import { createCatalogue } from "../../server/catalogue/index.ts";
import type { FakeStoreProduct } from "../../server/catalogue/product.ts";
import { createLogger } from "../../server/log.ts";
import { startFakeStoreHost, startImageHost } from "./fakestore-host.ts";
import { builtPages } from "./pages.ts";

export interface FakeStoreShopOptions {
  /** 0 for any free port. */
  port?: number;
  /** Products the host lists after the dataset's 20 (edge cases for the browser journeys). */
  extraProducts?: (imageOrigin: string) => FakeStoreProduct[];
}

/**
 * The production build served over HTTP on 127.0.0.1, pointed at a local FakeStore host with the real
 * dataset and a local image host (listed as an image origin): what a new user running the shop
 * against a FakeStore mirror sees, for browser journeys and screenshots. The image proxy may fetch
 * from 127.0.0.1 here, as nowhere in production.
 */
export async function startFakeStoreShop({ port = 0, extraProducts }: FakeStoreShopOptions = {}) {
  const images = await startImageHost();
  const host = await startFakeStoreHost(images.url, extraProducts?.(images.url));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-fakestore-shop-"));
  const log = createLogger({ NODE_ENV: "production", LOG_LEVEL: "warn" });
  const catalogue = createCatalogue(
    {
      CATALOGUE_URL: host.url,
      CATALOGUE_IMAGE_ORIGINS: [images.url],
      CATALOGUE_TIMEOUT_MS: 3_000,
      CATALOGUE_CACHE_SECONDS: 300,
      IMAGE_CACHE_MB: 100,
      DATA_DIR: dataDir,
    },
    log,
    { allowPrivateImageAddresses: true },
  );
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { app, services } = await testApp({
    env: { PUBLIC_URL: url },
    log,
    catalogue,
    ssr: await builtPages(),
    clientDir: path.resolve("build/client"),
  });
  server.on("request", getRequestListener(app.fetch));
  return {
    url,
    host,
    images,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([host.close(), images.close(), services.close()]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// `tsx test/support/fakestore-shop.ts [port]` runs it by hand (after `npm run build`), e.g. to
// look at the pages on the FakeStore data; Ctrl-C stops it.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const shop = await startFakeStoreShop({ port: Number(process.argv[2] ?? 0) });
  process.stdout.write(`FakeStore shop on ${shop.url} (catalogue ${shop.host.url}, images ${shop.images.url})\n`);
  process.on("SIGINT", () => void shop.close().then(() => process.exit(0)));
  process.on("SIGTERM", () => void shop.close().then(() => process.exit(0)));
}
