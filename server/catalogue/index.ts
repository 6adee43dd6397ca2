import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Catalogue } from "./catalogue.ts";
import { EmbeddedCatalogue } from "./embedded.ts";
import { RemoteCatalogue } from "./remote.ts";

export function createCatalogue(
  config: Pick<Config, "CATALOGUE_URL" | "CATALOGUE_TIMEOUT_MS" | "CATALOGUE_CACHE_SECONDS">,
  log: Logger,
): Catalogue {
  if (!config.CATALOGUE_URL) return new EmbeddedCatalogue();
  return new RemoteCatalogue({
    baseUrl: config.CATALOGUE_URL,
    timeoutMs: config.CATALOGUE_TIMEOUT_MS,
    cacheSeconds: config.CATALOGUE_CACHE_SECONDS,
    log,
  });
}
