import { type Context, Hono } from "hono";
import { routePath } from "hono/route";
import { z } from "zod";
import { newNonce } from "../http/security-headers.ts";
import { joined } from "../pipeline/ready-answer.ts";
import { hasBody, single } from "../pipeline/ready-answers.ts";
import type { InFront } from "../pipeline/step.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import { type Catalogue, CatalogueUnavailableError, type ListedProduct } from "./catalogue.ts";
import { type Made, PreparedAnswers, PUBLIC_DATA } from "./prepared-answers.ts";
import { parseProductId, toFakeStore, type Product } from "./product.ts";

/** The most products one list answer holds: without a `limit`, a longer list comes in pages of this many. */
export const PAGE_SIZE = 1000;
const PAGE_MESSAGE = "page must be a whole number from 1 to 1000000";

const listQuery = z.object({
  limit: limitParam(PAGE_SIZE).optional(),
  // FakeStore clients send sort=DESC as often as sort=desc.
  sort: z.preprocess((value) => (typeof value === "string" ? value.toLowerCase() : value), z.enum(["asc", "desc"], { error: "sort must be asc or desc" })).optional(),
  page: z.coerce.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(1, PAGE_MESSAGE).max(1_000_000, PAGE_MESSAGE).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** One list answer: its products, and the numbers of the pages before and after it (null: none to link). */
export interface ListPage<P = ListedProduct> {
  products: P[];
  prev: number | null;
  next: number | null;
}

/**
 * FakeStore semantics: `sort` orders by id, `limit` keeps the first n after sorting (no pages, as
 * FakeStore answers it). Without a `limit` the list comes in pages of PAGE_SIZE, `page` (from 1)
 * picks one; with both, pages are `limit` long. A page past the last is empty.
 */
export function listPage<P extends ListedProduct>(products: readonly P[], query: ListQuery): ListPage<P> {
  // Catalogues list by ascending id.
  const sorted = query.sort === "desc" ? [...products].reverse() : products;
  if (query.page === undefined && query.limit !== undefined) return { products: sorted.slice(0, query.limit), prev: null, next: null };
  const size = query.limit ?? PAGE_SIZE;
  const page = query.page ?? 1;
  const pages = Math.ceil(sorted.length / size);
  const start = (page - 1) * size;
  return { products: sorted.slice(start, start + size), prev: page > 1 && page <= pages ? page - 1 : null, next: page < pages ? page + 1 : null };
}

/**
 * The Link header (RFC 8288) to a list's neighbouring pages: absolute, on `publicUrl`, the same
 * path and query but for `page`. Exposed to other sites' scripts, which may read the list too.
 */
export function pageLinks(address: string, publicUrl: string, query: ListQuery, { prev, next }: Pick<ListPage, "prev" | "next">): Record<string, string> {
  const path = address.split("?", 1)[0]!;
  const at = (page: number) => {
    const params = new URLSearchParams();
    if (query.sort) params.set("sort", query.sort);
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    params.set("page", String(page));
    return new URL(`${path}?${params}`, publicUrl).href;
  };
  const links = [...(next ? [`<${at(next)}>; rel="next"`] : []), ...(prev ? [`<${at(prev)}>; rel="prev"`] : [])];
  return links.length > 0 ? { Link: links.join(", "), "Access-Control-Expose-Headers": "Link" } : {};
}

/** A CORS preflight's answer: any site may read, with whatever request headers it asks for. */
function preflight(c: Context): Response {
  c.header("Access-Control-Allow-Methods", "GET,HEAD,OPTIONS");
  c.header("Access-Control-Max-Age", "86400");
  const asked = c.req.header("access-control-request-headers");
  if (asked) {
    c.header("Access-Control-Allow-Headers", asked.split(/\s*,\s*/).join(","));
    c.header("Vary", "Access-Control-Request-Headers");
  }
  return c.body(null, 204);
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
  async function unlessAway<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
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
  async function answer(c: Context, build: (products: readonly ListedProduct[]) => Promise<Made>): Promise<Response> {
    const products = await unlessAway(() => catalogue.listed());
    const { status, headers, body } = await prepared.answer(
      catalogueAddress(c.req.url),
      routePath(c),
      products,
      (listed) => unlessAway(() => build(listed)),
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

  api.options("*", preflight);

  /** A list answer: a page of `chosen` (of the current list), read whole, with its links. */
  const list = (c: Context, chosen: (products: readonly ListedProduct[]) => readonly ListedProduct[]) => {
    const query = queryParams(c, listQuery);
    return answer(c, async (products) => {
      const page = listPage(chosen(products), query);
      const whole = await catalogue.byIds(page.products.map((p) => p.id));
      return { body: whole.map(shape), headers: pageLinks(catalogueAddress(c.req.url), publicUrl, query, page) };
    });
  };

  api.on("GET", either("/products"), (c) => list(c, (products) => products));

  api.on("GET", either("/products/categories"), (c) => answer(c, async (products) => ({ body: [...new Set(products.map((p) => p.category))].sort() })));

  api.on("GET", either("/products/category/:name"), (c) => {
    const name = c.req.param("name")!;
    return list(c, (products) => products.filter((p) => p.category === name));
  });

  api.on("GET", either("/products/:id"), (c) => {
    const raw = c.req.param("id")!;
    const id = parseProductId(raw);
    return answer(c, async () => {
      const product = id === null ? null : await catalogue.byId(id);
      if (!product) throw new HttpError(404, `No product with id ${JSON.stringify(raw)}.`);
      return { body: shape(product) };
    });
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
export function catalogueInFront(catalogue: Pick<Catalogue, "listed">, prepared: PreparedAnswers): InFront {
  return {
    finds: ({ req, url }) => {
      // A read with a body takes the body limit, in Hono, as every request with a body does.
      if ((req.method !== "GET" && req.method !== "HEAD") || hasBody(req) || !url.startsWith(CATALOGUE_API) || !prepared.has(url)) return null;
      return catalogue.listed().then((products) => {
        const found = prepared.find(url, products, single(req.headers["if-none-match"]), single(req.headers["accept-encoding"]));
        return found && { ...found, nonce: newNonce() };
      });
    },
  };
}
