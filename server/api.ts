import { Hono } from "hono";
import { AUTH_BASE_PATH, CLIENT_IP_HEADER } from "./auth/better-auth.ts";
import { allowedMethods } from "./api-edge/allowed-methods.ts";
import { authRequest } from "./api-edge/auth-body.ts";
import type { AppEnv } from "./http/env.ts";
import { jsonResponse } from "./api-edge/json-response.ts";
import { noApiEndpoint, noApiEndpointMessage } from "./http-error.ts";
import { adminRoutes } from "./admin/routes.ts";
import { healthRoutes } from "./observability/health.ts";
import { orderRoutes } from "./orders/routes.ts";
import { paymentRoutes } from "./payments/routes.ts";
import { searchRoutes } from "./search/routes.ts";
import type { Services } from "./services.ts";

/**
 * /api: what the browser calls directly (auth, payment, live feed, search suggestions) and health.
 * No body is parsed here (its size is limited before, server/http/body-limit.ts): each route
 * validates its own, and better-auth gets the raw request.
 * `routes` lists every route of the whole app, for the 405's Allow header.
 */
export function apiRoutes(services: Services, options: { instance: string; routes: () => ReadonlyArray<{ method: string; path: string }> }): Hono<AppEnv> {
  const { auth, database, catalogue } = services;
  const api = new Hono<AppEnv>();
  // better-auth's own routes. Our HTTP layer, not the client, says who the client is; a write's
  // body is JSON and checked where better-auth does not check it (api-edge/auth-body.ts).
  api.on(["GET", "POST"], "/auth/*", async (c) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, c.get("clientIp"));
    return auth.handler(await authRequest(c, c.req.path.slice(AUTH_BASE_PATH.length), headers));
  });
  api.get("/health", async (c) => {
    const ok = await database.ping();
    // The catalogue's state is reported, never a reason to fail: the pages degrade without it.
    return jsonResponse(c, { status: ok ? "ok" : "unavailable", database: database.engine, catalogue: catalogue.health() }, ok ? 200 : 503, {
      "Cache-Control": "no-store",
    });
  });
  api.route("/health", healthRoutes(database, services.readiness));
  api.route("/payment", paymentRoutes(services.payments));
  api.route("/orders", orderRoutes(services.orders, services.orderFeed, options.instance));
  api.route("/search", searchRoutes(services.search));
  // The back office's API: its own group, guarded as a whole (server/admin/gate.ts).
  api.route("/admin", adminRoutes(services));
  // No route matched: a path we have, asked with another method, is 405 (saying which it takes);
  // any other is 404, whatever the method.
  const allowed = allowedMethods(options.routes);
  api.all("*", (c) => {
    const methods = allowed(c.req.path);
    if (methods.length === 0) throw noApiEndpoint(c.req.method, c.req.path);
    return jsonResponse(c, { error: noApiEndpointMessage(c.req.method, c.req.path) }, 405, { Allow: methods.join(", ") });
  });
  return api;
}
