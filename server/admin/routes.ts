import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/env.ts";
import { jsonResponse } from "../http/json-response.ts";
import { limitParam, queryParams } from "../http/query.ts";
import { HttpError } from "../http-error.ts";
import type { Services } from "../services.ts";
import { adminMailRoutes } from "./mail-routes.ts";
import { adminOrderRoutes } from "./orders-routes.ts";
import { AdminOrders } from "./orders.ts";
import { productRoutes } from "./products-routes.ts";

const pageQuery = z.object({
  limit: limitParam(100).default(50),
  before: z.string().max(300).optional(),
});

/**
 * /api/admin: the back office's API. Mounted behind the admin gate (server/admin/gate.ts): every
 * handler here runs for a verified admin only, who is `c.get("staff")`.
 */
export function adminRoutes(services: Pick<Services, "audit" | "database" | "orders" | "refunds" | "products">): Hono<AppEnv> {
  const api = new Hono<AppEnv>();

  /** The audit log, newest first: { entries, next } (next: the cursor for ?before=, or null). */
  api.get("/audit", async (c) => {
    const page = await services.audit.page(queryParams(c, pageQuery));
    if (!page.ok) throw new HttpError(400, page.message);
    return jsonResponse(c, { entries: page.entries, next: page.next });
  });

  api.route("/products", productRoutes(services.products));
  api.route("/orders", adminOrderRoutes(new AdminOrders(services.database.db, services.orders, services.refunds)));
  api.route("/mail", adminMailRoutes(services.database.db));

  return api;
}
