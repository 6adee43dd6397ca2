import path from "node:path";
import type { Config } from "../config.ts";
import { ImageProxy } from "../images/proxy.ts";
import type { Logger } from "../log.ts";
import type { Telemetry } from "../observability/port.ts";
import type { Catalogue } from "./catalogue.ts";
import { EmbeddedCatalogue } from "./embedded.ts";
import { RemoteCatalogue } from "./remote.ts";

/**
 * Images have their own, longer timeout: no page waits for them (the browser loads them after the
 * page), each is fetched once, and a full-size photo is far bigger than the product list.
 */
const IMAGE_FETCH_TIMEOUT_MS = 10_000;

export type CatalogueConfig = Pick<
  Config,
  "CATALOGUE_URL" | "CATALOGUE_TIMEOUT_MS" | "CATALOGUE_CACHE_SECONDS" | "CATALOGUE_IMAGE_ORIGINS" | "IMAGE_CACHE_MB" | "DATA_DIR"
>;

export interface CatalogueTestOptions {
  /**
   * Tests only: lets the image proxy fetch from 127.0.0.1, where the test image hosts listen. No
   * configuration variable sets it; in production private addresses are always refused.
   */
  allowPrivateImageAddresses?: boolean;
}

export function createCatalogue(
  config: CatalogueConfig,
  log: Logger,
  testOptions: CatalogueTestOptions = {},
  telemetry?: Pick<Telemetry, "trace" | "catalogueRefreshFailed" | "imageFetched">,
): Catalogue {
  if (!config.CATALOGUE_URL) return new EmbeddedCatalogue();
  const imageProxy = new ImageProxy({
    allowedOrigins: [new URL(config.CATALOGUE_URL).origin, ...config.CATALOGUE_IMAGE_ORIGINS],
    cacheDir: path.join(config.DATA_DIR, "image-cache"),
    maxCacheBytes: config.IMAGE_CACHE_MB * 1024 * 1024,
    timeoutMs: IMAGE_FETCH_TIMEOUT_MS,
    log,
    allowPrivateAddresses: testOptions.allowPrivateImageAddresses ?? false,
    telemetry,
  });
  const catalogue = new RemoteCatalogue({
    baseUrl: config.CATALOGUE_URL,
    timeoutMs: config.CATALOGUE_TIMEOUT_MS,
    cacheSeconds: config.CATALOGUE_CACHE_SECONDS,
    log,
    imageProxy,
    telemetry,
  });
  if (telemetry) countFailedRefreshes(catalogue, telemetry);
  // Start-up does not wait for the host; the first copy is on its way while the server starts listening.
  catalogue.warmUp();
  return catalogue;
}

/** The operators' count of failed refreshes of the remote copy. */
export function countFailedRefreshes(catalogue: RemoteCatalogue, telemetry: Pick<Telemetry, "catalogueRefreshFailed">): void {
  catalogue.onRefresh((outcome) => outcome.ok || telemetry.catalogueRefreshFailed());
}
