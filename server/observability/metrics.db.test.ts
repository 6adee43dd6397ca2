import { describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { listen } from "../../test/support/listen.ts";
import { builtPageRoutes } from "../../test/support/page-routes.ts";
import { parseMetrics, sampleValue, scrape } from "../../test/support/prometheus-text.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { signUp, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";
import { followSse } from "../../test/support/sse.ts";
import { serveMetrics } from "./metrics-server.ts";
import { createLogger } from "../log.ts";
import { startReconciler } from "../payments/reconciler.ts";
import { eventually } from "../../test/support/poll.ts";

// Real requests over HTTP to the shop, then GET /metrics on the metrics listener, parsed.

const PRICE = Math.round(products.find((p) => p.id === 4)!.price * 100);
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };
const DECLINED = { ...CARD, number: "4000000000000002" };

describe.each(testEngines())("metrics on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function shop(options: { pages?: boolean } = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const pages = options.pages ? { ssr: await builtPages(), pageRoutes: await builtPageRoutes() } : {};
    const { app, services } = await testApp({ database, ...pages });
    cleanup(() => services.close());
    const server = await listen(app.fetch);
    cleanup(server.close);
    const metrics = await serveMetrics(services.metrics.registry, "127.0.0.1", 0);
    cleanup(metrics.close);
    const post = (path: string, body: unknown, cookie: string) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: TEST_ORIGIN, cookie }, body: JSON.stringify(body) });
    return { app, services, database, url: server.url, metricsUrl: metrics.url, post };
  }

  it("counts requests by method, route pattern and status with a latency histogram, never naming a raw path", async () => {
    const { url, metricsUrl } = await shop();
    for (const path of ["/api/catalogue/products/3", "/api/catalogue/products/3", "/api/catalogue/products", "/api/no/such/thing", "/api/health/live"]) {
      await (await fetch(`${url}${path}`)).arrayBuffer();
    }
    await fetch(`${url}/api/payment/create`, { method: "DELETE" }).then((r) => r.arrayBuffer());

    const { text, samples } = await scrape(metricsUrl);
    const requests = (labels: Record<string, string>) => sampleValue(samples, "storefront_http_requests_total", labels);
    expect(requests({ method: "GET", route: "/api/catalogue/products/:id", status: "200" })).toBe(2);
    expect(requests({ method: "GET", route: "/api/catalogue/products", status: "200" })).toBe(1);
    expect(requests({ method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(requests({ method: "GET", route: "/api/health/live", status: "200" })).toBe(1);
    expect(requests({ method: "DELETE", route: "unmatched", status: "405" })).toBe(1);

    const histogram = { method: "GET", route: "/api/catalogue/products/:id" };
    expect(sampleValue(samples, "storefront_http_request_duration_seconds_count", histogram)).toBe(2);
    expect(sampleValue(samples, "storefront_http_request_duration_seconds_bucket", { ...histogram, le: "+Inf" })).toBe(2);
    expect(sampleValue(samples, "storefront_http_request_duration_seconds_sum", histogram)).toBeGreaterThan(0);
    expect(text).not.toContain("/api/catalogue/products/3");
    expect(text).not.toContain("/api/no/such");
  });

  it("counts checkouts created, rejected, declined and succeeded, the order written and the gateway's calls", async () => {
    const { app, metricsUrl, post } = await shop();
    const cookie = await signUp(app, "metrics@example.com");
    const refused = await post("/api/payment/create", { items: [{ id: 4, amount: 1 }], total: PRICE + 1 }, cookie);
    expect(refused.status).toBe(409);
    const created = (await (await post("/api/payment/create", { items: [{ id: 4, amount: 1 }], total: PRICE }, cookie)).json()) as { clientSecret: string };
    expect((await post("/api/payment/confirm", { clientSecret: created.clientSecret, card: DECLINED }, cookie)).status).toBe(402);
    expect((await post("/api/payment/confirm", { clientSecret: created.clientSecret, card: CARD }, cookie)).status).toBe(200);
    expect((await post("/api/payment/confirm", { clientSecret: created.clientSecret, card: CARD }, cookie)).status).toBe(409);

    const { text, samples } = await scrape(metricsUrl);
    const checkouts = (outcome: string) => sampleValue(samples, "storefront_checkouts_total", { outcome });
    expect([checkouts("created"), checkouts("declined"), checkouts("succeeded"), checkouts("rejected"), checkouts("failed")]).toEqual([1, 1, 1, 2, 0]);
    expect(sampleValue(samples, "storefront_orders_written_total")).toBe(1);
    expect(sampleValue(samples, "storefront_gateway_call_duration_seconds_count", { gateway: "test", operation: "create_intent", outcome: "ok" })).toBe(1);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "POST", route: "/api/payment/confirm", status: "402" })).toBe(1);
    // Nobody's identity in a label.
    expect(text).not.toContain("metrics@example.com");
  });

  it("reports open order streams, database connections in use, the catalogue's state and the reconciler's runs", async () => {
    const { app, url, metricsUrl, database, services } = await shop();
    const cookie = await signUp(app, "streams@example.com");
    const value = async (name: string, labels: Record<string, string> = {}) => sampleValue((await scrape(metricsUrl)).samples, name, labels);

    const stream = followSse(`${url}/api/orders/stream`, { cookie });
    try {
      await stream.next((e) => e.event === "ready");
      expect(await value("storefront_order_streams_open")).toBe(1);
    } finally {
      stream.close();
    }
    expect(await eventually(() => value("storefront_order_streams_open"), (n) => n === 0)).toBe(0);

    await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom("orders").select("id").execute();
      // PostgreSQL: the transaction's connection is checked out; SQLite has its one connection open.
      // (This gauge alone: a whole scrape also counts the mail outbox, which on SQLite would wait
      // for this very transaction.)
      const gauge = await services.metrics.registry.getSingleMetricAsString("storefront_db_connections_in_use");
      expect(sampleValue(parseMetrics(gauge), "storefront_db_connections_in_use")).toBe(1);
    });

    const { samples } = await scrape(metricsUrl);
    expect(["fresh", "stale", "unavailable"].map((state) => sampleValue(samples, "storefront_catalogue_state", { state }))).toEqual([1, 0, 0]);
    // main.ts starts the reconciler (building the services does not): one round, counted.
    expect(await value("storefront_reconciler_runs_total", { outcome: "ok" })).toBe(0);
    const reconciling = startReconciler(services.reconciler, 60_000, createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" }), services.metrics);
    expect(await eventually(() => value("storefront_reconciler_runs_total", { outcome: "ok" }), (n) => n === 1)).toBe(1);
    await reconciling.stop();
    expect(await value("storefront_reconciler_fulfilled_total")).toBe(0);
  });

  it("names pages by their route pattern and counts page cache hits and misses", async () => {
    const { url, metricsUrl } = await shop({ pages: true });
    for (const path of ["/products/1", "/products/2", "/products/1", "/no/such/page", "/products/1.data"]) await (await fetch(`${url}${path}`)).arrayBuffer();

    const { text, samples } = await scrape(metricsUrl);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "GET", route: "/products/:productId", status: "200" })).toBe(3);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(sampleValue(samples, "storefront_http_requests_total", { method: "GET", route: "/products/:productId.data", status: "200" })).toBe(1);
    expect(sampleValue(samples, "storefront_page_cache_lookups_total", { result: "miss" })).toBe(3);
    expect(sampleValue(samples, "storefront_page_cache_lookups_total", { result: "hit" })).toBe(1);
    expect(text).not.toContain("/products/1\"");
    expect(parseMetrics(text).some((s) => s.labels.route === "/no/such/page")).toBe(false);
  });
});
