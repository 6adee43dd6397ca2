import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCatalogue } from "../../server/catalogue/index.ts";
import { RemoteCatalogue } from "../../server/catalogue/remote.ts";
import { testApp } from "./app.ts";
import { memoryLogger } from "./logger.ts";
import { builtPages } from "./pages.ts";

export interface RemoteShopOptions {
  catalogueUrl: string;
  imageOrigins?: string[];
  timeoutMs?: number;
  cacheSeconds?: number;
}

export const SHOP_URL = "http://localhost:3000";

/**
 * The shop in-process (production build, SQLite in memory) over a remote catalogue, set up as
 * main.ts sets it up from the environment, except that the image proxy may fetch from the test
 * image hosts on 127.0.0.1.
 */
export async function remoteShop({ catalogueUrl, imageOrigins = [], timeoutMs = 1_000, cacheSeconds = 300 }: RemoteShopOptions) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-remote-shop-"));
  const { log, records } = memoryLogger();
  const catalogue = createCatalogue(
    {
      CATALOGUE_URL: catalogueUrl,
      CATALOGUE_IMAGE_ORIGINS: imageOrigins,
      CATALOGUE_TIMEOUT_MS: timeoutMs,
      CATALOGUE_CACHE_SECONDS: cacheSeconds,
      IMAGE_CACHE_MB: 50,
      DATA_DIR: dataDir,
    },
    log,
    { allowPrivateImageAddresses: true },
  );
  if (!(catalogue instanceof RemoteCatalogue)) throw new Error("createCatalogue made no remote catalogue");
  const { app, services } = await testApp({ env: { PUBLIC_URL: SHOP_URL }, log, catalogue, ssr: await builtPages() });

  async function page(url: string) {
    const response = await app.request(url);
    const html = await response.text();
    return { status: response.status, html, csp: response.headers.get("content-security-policy") ?? "" };
  }

  return {
    app,
    catalogue,
    records,
    dataDir,
    page,
    async close() {
      await services.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Text as React writes it into HTML, to look for titles in rendered pages. */
export function asHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}
