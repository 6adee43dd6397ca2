import { Hono } from "hono";
import { etag } from "hono/etag";
import { z } from "zod";
import { jsonResponse } from "../api-edge/json-response.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import type { SearchService } from "./service.ts";

/** The body of GET /api/search: product titles for the search box's suggestions. */
export interface SuggestionsBody {
  query: string;
  total: number;
  results: Array<{ id: number; title: string }>;
}

const suggestionsQuery = z.object({
  // Any text is a query; the service tidies it and cuts it to 200 characters.
  q: z.string().default(""),
  limit: limitParam(20).default(6),
});

/** GET /api/search?q=&limit=: what the browser asks for while a shopper types. */
export function searchRoutes(search: SearchService): Hono {
  const api = new Hono();

  api.use("*", etag(), async (c, next) => {
    await next();
    // The same query gives the same answer until the catalogue changes: a browser may reuse it for
    // a minute, which spares a request for every backspace.
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=60");
  });

  api.get("/", async (c) => {
    const { q, limit } = queryParams(c, suggestionsQuery);
    const { query, total, hits } = await search.query(q, limit);
    const body: SuggestionsBody = {
      query,
      total,
      results: hits.map(({ product }) => ({ id: product.id, title: product.title })),
    };
    return jsonResponse(c, body);
  });

  return api;
}
