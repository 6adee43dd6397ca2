import { Hono } from "hono";
import { z } from "zod";
import { jsonResponse } from "../api-edge/json-response.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import type { Services } from "../services.ts";
import { type StaffEnv, staffOnly } from "./gate.ts";
import { adminMailRoutes } from "./mail-routes.ts";
import { adminOrderRoutes } from "./orders-routes.ts";
import { productRoutes } from "./products-routes.ts";

const pageQuery = z.object({
  limit: limitParam(100).default(50),
  before: z.string().max(300).optional(),
});

/**
 * /api/admin: the back office's API, one group whose first step is the guard (gate.ts): it runs
 * for every route here, however the address was spelt, and every handler after it runs for a
 * verified admin only, who is `c.get("staff")`. Anyone else gets the 404 of an unknown address.
 */
export function adminRoutes(services: Pick<Services, "audit" | "database" | "adminOrders" | "products">): Hono<StaffEnv> {
  const api = new Hono<StaffEnv>();
  api.use("*", staffOnly(services.database.db));

  /** The audit log, newest first: { entries, next } (next: the cursor for ?before=, or null). */
  api.get("/audit", async (c) => {
    const page = await services.audit.page(queryParams(c, pageQuery));
    if (!page.ok) throw new HttpError(400, page.message);
    return jsonResponse(c, { entries: page.entries, next: page.next });
  });

  api.route("/products", productRoutes(services.products));
  api.route("/orders", adminOrderRoutes(services.adminOrders));
  api.route("/mail", adminMailRoutes(services.database.db));

  return api;
}
