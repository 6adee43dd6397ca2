import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { preferredEncoding } from "../http/compression.ts";
import { limitParam, queryParams } from "../http/query.ts";
import { HttpError } from "../http-error.ts";
import { type Catalogue, CatalogueUnavailableError } from "./catalogue.ts";
import { parseProductId, toFakeStore, type Product } from "./product.ts";

const listQuery = z.object({
  limit: limitParam(1000).optional(),
  // FakeStore clients send sort=DESC as often as sort=desc.
  sort: z.preprocess((value) => (typeof value === "string" ? value.toLowerCase() : value), z.enum(["asc", "desc"], { error: "sort must be asc or desc" })).optional(),
});

/** FakeStore semantics: `sort` orders by id, `limit` keeps the first n after sorting. */
export function applyListQuery(products: Product[], query: { limit?: number; sort?: "asc" | "desc" }): Product[] {
  const sorted = query.sort === "desc" ? [...products].sort((a, b) => b.id - a.id) : products;
  return query.limit === undefined ? sorted : sorted.slice(0, query.limit);
}

type Encoding = "br" | "gzip" | "identity";

/** One form of an answer as it goes out: the bytes and every header of its own, made once. */
interface Sendable {
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

/** One answer, serialised, hashed and compressed once for as long as the catalogue's data is the same. */
interface Prepared {
  /** The product list it was made from: a different list (a refresh) means a stale answer. */
  source: Product[];
  json: string;
  etag: string;
  forms: Partial<Record<Encoding, Sendable>>;
}

/** Public, read-only data: every site may read it (no credentials) and show it. */
const PUBLIC_DATA = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
const CACHE_CONTROL = "public, max-age=60";

function sendable({ json, etag }: Prepared, encoding: Encoding): Sendable {
  const body = new Uint8Array(
    encoding === "br"
      ? brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
      : encoding === "gzip"
        ? gzipSync(json, { level: 9 })
        : Buffer.from(json),
  );
  const headers: Record<string, string> = { ...PUBLIC_DATA, "Content-Type": "application/json", ETag: etag, "Cache-Control": CACHE_CONTROL, Vary: "Accept-Encoding" };
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.byteLength);
  return { body, headers };
}

const MAX_PREPARED = 500;
const COMPRESS_FROM_BYTES = 1024;

/** A path with and without a trailing slash: FakeStore (Express) answers both. */
const either = (path: string) => [path, `${path}/`];

/**
 * Our catalogue in the FakeStore API's shape, so any FakeStore client can use it, from a browser on
 * any site too: the data is public and read-only, so every origin may read it (no credentials).
 */
export function catalogueRoutes(catalogue: Catalogue, publicUrl: string): Hono {
  const api = new Hono();
  const shape = (product: Product) => toFakeStore(product, publicUrl);
  const prepared = new Map<string, Prepared>();

  // Translated here rather than in an onError of this sub-app: Hono wraps a sub-app that has its
  // own error handler around every one of its responses, which costs each request a copy.
  async function currentList(): Promise<Product[]> {
    try {
      return await catalogue.list();
    } catch (error) {
      if (error instanceof CatalogueUnavailableError) throw new HttpError(502, "The catalogue is unavailable; try again shortly.");
      throw error;
    }
  }

  /**
   * Answers from the catalogue's current list: every request still reads it (so a remote catalogue
   * keeps refreshing), but the JSON, its ETag and its compressed forms are made once per list and
   * address, not per request.
   */
  async function answer(c: Context, build: (products: Product[]) => unknown): Promise<Response> {
    const products = await currentList();
    // The path and query as sent (the URL is absolute: scheme://host/...).
    const key = c.req.url.slice(c.req.url.indexOf("/", c.req.url.indexOf("//") + 2));
    let entry = prepared.get(key);
    if (!entry || entry.source !== products) {
      const json = JSON.stringify(build(products));
      entry = { source: products, json, etag: `"${createHash("sha1").update(json).digest("base64url")}"`, forms: {} };
      if (prepared.size >= MAX_PREPARED) prepared.clear();
      prepared.set(key, entry);
    }
    if (c.req.header("if-none-match") === entry.etag) {
      c.header("ETag", entry.etag);
      c.header("Cache-Control", CACHE_CONTROL);
      c.header("Vary", "Accept-Encoding");
      return c.body(null, 304);
    }
    const encoding = entry.json.length >= COMPRESS_FROM_BYTES ? (preferredEncoding(c.req.header("accept-encoding"), ["br", "gzip"]) ?? "identity") : "identity";
    const { body, headers } = (entry.forms[encoding] ??= sendable(entry, encoding));
    // The whole answer, headers included, as prepared: nothing is built or copied per request.
    return new Response(body, { status: 200, headers });
  }

  // Set before the route runs, so they ride on every answer, errors included, at no extra cost.
  // (Prepared answers carry them already.)
  api.use("*", async (c, next) => {
    // The site-wide same-origin policy would stop other sites' no-cors loads of this public data.
    for (const [name, value] of Object.entries(PUBLIC_DATA)) c.header(name, value);
    await next();
  });

  // CORS preflight: any site may read, with whatever request headers it asks for.
  api.options("*", (c) => {
    c.header("Access-Control-Allow-Methods", "GET,HEAD,OPTIONS");
    c.header("Access-Control-Max-Age", "86400");
    const asked = c.req.header("access-control-request-headers");
    if (asked) {
      c.header("Access-Control-Allow-Headers", asked.split(/\s*,\s*/).join(","));
      c.header("Vary", "Access-Control-Request-Headers");
    }
    return c.body(null, 204);
  });

  api.on("GET", either("/products"), async (c) => {
    const query = queryParams(c, listQuery);
    return answer(c, (products) => applyListQuery(products, query).map(shape));
  });

  api.on("GET", either("/products/categories"), (c) => answer(c, (products) => [...new Set(products.map((p) => p.category))].sort()));

  api.on("GET", either("/products/category/:name"), async (c) => {
    const query = queryParams(c, listQuery);
    const name = c.req.param("name")!;
    return answer(c, (products) => applyListQuery(products.filter((p) => p.category === name), query).map(shape));
  });

  api.on("GET", either("/products/:id"), async (c) => {
    const raw = c.req.param("id")!;
    const id = parseProductId(raw);
    const product = id === null ? null : (await currentList()).find((p) => p.id === id);
    if (!product) throw new HttpError(404, `No product with id ${JSON.stringify(raw)}.`);
    return answer(c, () => shape(product));
  });

  return api;
}
