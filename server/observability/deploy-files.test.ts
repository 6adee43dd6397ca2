import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EmbeddedCatalogue } from "../catalogue/embedded.ts";
import { openDatabase } from "../db/database.ts";
import { InProcessOrderEvents } from "../orders/events.ts";
import { OrderFeed } from "../orders/feed.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { ShopMetrics } from "./metrics.ts";
import { watchServices } from "./service-gauges.ts";
import { OrdersService } from "../orders/service.ts";

// deploy/alerts.yml and deploy/grafana-dashboard.json name metrics by hand: each name must be one
// the shop exports, or the alert would never fire.

const alerts = fs.readFileSync("deploy/alerts.yml", "utf8");
const dashboard = JSON.parse(fs.readFileSync("deploy/grafana-dashboard.json", "utf8")) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((p) => fs.existsSync(p));

/** Every series name the shop exports, histograms with their _bucket, _sum and _count. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = new ShopMetrics();
  metrics.collectProcessMetrics();
  const database = openDatabase({ engine: "sqlite", file: ":memory:" });
  const events = new InProcessOrderEvents();
  watchServices(metrics, { database, catalogue: new EmbeddedCatalogue(), orderFeed: new OrderFeed(new OrdersService(database.db, events), events, memoryLogger().log) });
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
  }
  await database.close();
  return names;
}

const namesIn = (text: string) => new Set(text.match(/\b(storefront|nodejs|process)_[a-z0-9_]+/g) ?? []);

describe("deploy/ monitoring files", () => {
  it("name only metrics the shop exports", async () => {
    const exported = await exportedNames();
    const named = new Set([...namesIn(alerts), ...dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...namesIn(t.expr)]))]);
    expect(named.size).toBeGreaterThan(8);
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });

  it("alert on 5xx, p99, the reconciler, a stale catalogue and failing mail; chart what an operator watches", () => {
    for (const alert of ["StorefrontServerErrors", "StorefrontSlowRequests", "StorefrontReconcilerFulfilledPayments", "StorefrontCatalogueStale", "StorefrontMailFailing"]) {
      expect(alerts).toContain(`alert: ${alert}`);
    }
    expect(alerts).toMatch(/storefront_catalogue_state\{state=~"stale\|unavailable"\}[^\n]*\n\s+for: 10m/);
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of ["Request rate by route", "p99 latency by route", "Errors (5xx) by route and status", "Checkouts by outcome", "Open order streams", "Catalogue state"]) {
      expect(titles).toContain(title);
    }
  });

  it.skipIf(!promtool)("pass promtool's checks (config, rule files)", () => {
    const out = execFileSync(promtool!, ["check", "config", "deploy/prometheus.yml"], { encoding: "utf8" });
    expect(out).toContain("SUCCESS");
  });
  if (!promtool) console.log("promtool checks skipped: promtool is not installed (Debian: apt-get install -y prometheus).");
});
