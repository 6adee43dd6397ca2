import { Hono } from "hono";
import { etag } from "hono/etag";
import { z } from "zod";
import { HttpError } from "../http-error.ts";
import { type Catalogue, CatalogueUnavailableError } from "./catalogue.ts";
import { parseProductId, toFakeStore, type Product } from "./product.ts";

const listQuery = z.object({
  limit: z.coerce
    .number({ error: "limit must be a whole number from 1 to 1000" })
    .int("limit must be a whole number from 1 to 1000")
    .min(1, "limit must be a whole number from 1 to 1000")
    .max(1000, "limit must be a whole number from 1 to 1000")
    .optional(),
  sort: z.enum(["asc", "desc"], { error: "sort must be asc or desc" }).optional(),
});

function parseListQuery(query: Record<string, string>) {
  const result = listQuery.safeParse(query);
  if (!result.success) throw new HttpError(400, result.error.issues[0]!.message);
  return result.data;
}

/** FakeStore semantics: `sort` orders by id, `limit` keeps the first n after sorting. */
export function applyListQuery(products: Product[], query: { limit?: number; sort?: "asc" | "desc" }): Product[] {
  const sorted = query.sort === "desc" ? [...products].sort((a, b) => b.id - a.id) : products;
  return query.limit === undefined ? sorted : sorted.slice(0, query.limit);
}

/** Our catalogue in the FakeStore API's shape, so any FakeStore client can use it. */
export function catalogueRoutes(catalogue: Catalogue, publicUrl: string): Hono {
  const api = new Hono();
  const shape = (product: Product) => toFakeStore(product, publicUrl);

  api.use("*", etag(), async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=60");
  });

  api.onError((error) => {
    if (CatalogueUnavailableError.is(error)) throw new HttpError(502, "The catalogue is unavailable; try again shortly.");
    throw error;
  });

  api.get("/products", async (c) => {
    const query = parseListQuery(c.req.query());
    return c.json(applyListQuery(await catalogue.list(), query).map(shape));
  });

  api.get("/products/categories", async (c) => c.json(await catalogue.categories()));

  api.get("/products/category/:name", async (c) => {
    const query = parseListQuery(c.req.query());
    return c.json(applyListQuery(await catalogue.inCategory(c.req.param("name")), query).map(shape));
  });

  api.get("/products/:id", async (c) => {
    const raw = c.req.param("id");
    const id = parseProductId(raw);
    const product = id === null ? null : await catalogue.byId(id);
    if (!product) throw new HttpError(404, `No product with id ${JSON.stringify(raw)}.`);
    return c.json(shape(product));
  });

  return api;
}
