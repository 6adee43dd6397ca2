import { type Context, Hono } from "hono";
import { routePath } from "hono/route";
import { z } from "zod";
import { newNonce } from "../http/security-headers.ts";
import { joined } from "../pipeline/ready-answer.ts";
import { hasBody, single } from "../pipeline/ready-answers.ts";
import type { InFront } from "../pipeline/step.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import { type Catalogue, CatalogueUnavailableError } from "./catalogue.ts";
import { PreparedAnswers, PUBLIC_DATA } from "./prepared-answers.ts";
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

/** A path with and without a trailing slash: FakeStore (Express) answers both. */
const either = (path: string) => [path, `${path}/`];

/**
 * Our catalogue in the FakeStore API's shape, so any FakeStore client can use it, from a browser on
 * any site too: the data is public and read-only, so every origin may read it (no credentials).
 */
export function catalogueRoutes(catalogue: Catalogue, publicUrl: string, prepared = new PreparedAnswers()): Hono {
  const api = new Hono();
  const shape = (product: Product) => toFakeStore(product, publicUrl);

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
   * address, not per request (catalogue/prepared-answers.ts).
   */
  async function answer(c: Context, build: (products: Product[]) => unknown): Promise<Response> {
    const products = await currentList();
    const { status, headers, body } = prepared.answer(
      catalogueAddress(c.req.url),
      routePath(c),
      products,
      build,
      c.req.header("if-none-match"),
      c.req.header("accept-encoding"),
    );
    // The whole answer, headers included, as prepared: nothing is built or copied per request.
    return new Response(body && joined(body), { status, headers });
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

/** The path and query as sent, from an absolute URL (scheme://host/...): what the prepared answers are kept by. */
export const catalogueAddress = (url: string): string => url.slice(url.indexOf("/", url.indexOf("//") + 2));

const CATALOGUE_API = "/api/catalogue/";

/**
 * The catalogue API in front of Hono (pipeline/ready-answers.ts): a read of an address that has a
 * prepared answer gets it, when it was made from the catalogue's current list. An older answer, or a
 * catalogue that is away, is the route's to answer (it makes the answer again, or says 502).
 */
export function catalogueInFront(catalogue: Pick<Catalogue, "list">, prepared: PreparedAnswers): InFront {
  return {
    finds: ({ req, url }) => {
      // A read with a body takes the body limit, in Hono, as every request with a body does.
      if ((req.method !== "GET" && req.method !== "HEAD") || hasBody(req) || !url.startsWith(CATALOGUE_API) || !prepared.has(url)) return null;
      return catalogue.list().then((products) => {
        const found = prepared.find(url, products, single(req.headers["if-none-match"]), single(req.headers["accept-encoding"]));
        return found && { ...found, nonce: newNonce() };
      });
    },
  };
}
