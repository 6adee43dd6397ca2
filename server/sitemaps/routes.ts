import type { Context, Next } from "hono";
import { type Catalogue, CatalogueUnavailableError } from "../catalogue/catalogue.ts";
import { acceptsGzip } from "../http/compression.ts";
import { HttpError } from "../http-error.ts";
import type { Step } from "../pipeline/step.ts";
import { type Made, made, robotsTxt, Sitemaps } from "./sitemaps.ts";

/** Crawlers come back now and then; a catalogue change shows within minutes. */
const CACHE_CONTROL = "public, max-age=300";
const XML = "application/xml";
/** Smaller answers cost more to compress than they save on the wire. */
const GZIP_FROM_BYTES = 1024;

/** Whether an If-None-Match header names `etag` (weakly, as RFC 9110 compares for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return !!ifNoneMatch && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag));
}

/** A text made once, as a 304, gzipped when the client takes it, or as it is. */
async function send(c: Context, text: Made, type: string): Promise<Response> {
  const headers: Record<string, string> = { "Cache-Control": CACHE_CONTROL, ETag: text.etag, Vary: "Accept-Encoding" };
  if (matches(c.req.header("if-none-match"), text.etag)) return c.body(null, 304, headers);
  headers["Content-Type"] = type;
  if (text.body.byteLength < GZIP_FROM_BYTES || !acceptsGzip(c.req.header("accept-encoding"))) return c.body(new Uint8Array(text.body), 200, headers);
  return c.body(new Uint8Array(await text.gzip()), 200, { ...headers, "Content-Encoding": "gzip" });
}

/** A sitemap read from the catalogue, or the 503 a crawler comes back after when the catalogue is away. */
async function fromCatalogue<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CatalogueUnavailableError) throw new HttpError(503, "The catalogue is unavailable; try again shortly.", { "Retry-After": "60" });
    throw error;
  }
}

/**
 * robots.txt and the sitemaps (sitemaps.org): /sitemap.xml indexes /sitemaps/{name}.xml, which
 * list every product's and category's page. A pipeline step of its own, ahead of the pages.
 */
export function sitemapsStep(catalogue: Pick<Catalogue, "listed" | "lastModified">, publicUrl: string): Step {
  const sitemaps = new Sitemaps(catalogue, publicUrl);
  const robots = made(robotsTxt(publicUrl));
  return {
    name: "sitemaps",
    hono: (app) => {
      app.get("/robots.txt", (c) => send(c, robots, "text/plain; charset=utf-8"));
      app.get("/sitemap.xml", async (c) => send(c, await fromCatalogue(() => sitemaps.index()), XML));
      app.get("/sitemaps/:file", async (c: Context, next: Next) => {
        const sitemap = await fromCatalogue(() => sitemaps.sitemap(c.req.param("file")!));
        // Not one of ours: the shop's "Page not found", from the pages.
        if (!sitemap) return next();
        return send(c, sitemap, XML);
      });
    },
    inFront: { idle: "crawlers ask for robots.txt and the sitemaps now and then; each is made once per catalogue list and sent gzipped as made" },
  };
}
