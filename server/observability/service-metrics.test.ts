import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMetrics, sampleValue } from "../../test/support/prometheus-text.ts";
import { RemoteCatalogue } from "../catalogue/remote.ts";
import { openDatabase } from "../db/database.ts";
import { ImageProxy } from "../images/proxy.ts";
import { InProcessOrderEvents } from "../orders/events.ts";
import { OrderFeed } from "../orders/feed.ts";
import { nextRefresh, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { startImageHost } from "../../test/support/fakestore-host.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { ShopMetrics } from "./metrics.ts";
import { watchServices } from "./service-gauges.ts";
import { countFailedRefreshes } from "../catalogue/index.ts";
import { OrdersService } from "../orders/service.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
let images: Awaited<ReturnType<typeof startImageHost>>;
beforeAll(async () => {
  [fake, images] = await Promise.all([startFakeCatalogue(), startImageHost()]);
});
afterAll(async () => {
  await fake.close();
  await images.close();
});

const read = async (metrics: ShopMetrics) => parseMetrics(await metrics.registry.metrics());

describe("service metrics", () => {
  it("follow the remote catalogue from fresh to stale and count its failed refreshes", async () => {
    const { log } = memoryLogger();
    const metrics = new ShopMetrics();
    let time = Date.parse("2025-06-01T12:00:00Z");
    const catalogue = new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 500, cacheSeconds: 60, log, now: () => time, telemetry: metrics });
    countFailedRefreshes(catalogue, metrics);
    const database = openDatabase({ engine: "sqlite", file: ":memory:" });
    const events = new InProcessOrderEvents();
    watchServices(metrics, { database, catalogue, orderFeed: new OrderFeed(new OrdersService(database.db, events), events, log) });
    const state = async () => {
      const samples = await read(metrics);
      return ["fresh", "stale", "unavailable"].filter((s) => sampleValue(samples, "storefront_catalogue_state", { state: s }) === 1);
    };

    expect(await state()).toEqual(["unavailable"]);
    fake.state.mode = "ok";
    await catalogue.list();
    expect(await state()).toEqual(["fresh"]);

    fake.state.mode = "error";
    time += 61_000;
    const refreshed = nextRefresh(catalogue);
    await catalogue.list(); // answered from the copy; the refresh fails in the background
    await refreshed;
    expect(await state()).toEqual(["stale"]);
    expect(sampleValue(await read(metrics), "storefront_catalogue_refresh_failures_total")).toBe(1);
    expect(await database.ping()).toBe(true);
    expect(sampleValue(await read(metrics), "storefront_db_connections_in_use")).toBe(1);
    await database.close();
    expect(sampleValue(await read(metrics), "storefront_db_connections_in_use")).toBe(0);
    fake.state.mode = "ok";
  });

  it("count the image sources fetched and those that could not be", async () => {
    const { log } = memoryLogger();
    const metrics = new ShopMetrics();
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-image-metrics-"));
    try {
      const proxy = new ImageProxy({ allowedOrigins: [images.url], cacheDir, maxCacheBytes: 10 * 1024 * 1024, timeoutMs: 2_000, log, allowPrivateAddresses: true, telemetry: metrics });
      const key = (url: string) => proxy.link(url)!.image.split("/")[3]!;
      expect((await proxy.image(key(`${images.url}/img/a.png`), "240", "webp")).ok).toBe(true);
      expect((await proxy.image(key(`${images.url}/img/a.png`), "480", "webp")).ok).toBe(true); // the source is on disk now
      expect((await proxy.image(key(`${images.url}/img/missing.txt`), "240", "webp")).ok).toBe(false);
      const samples = await read(metrics);
      expect(sampleValue(samples, "storefront_image_fetches_total", { outcome: "ok" })).toBe(1);
      expect(sampleValue(samples, "storefront_image_fetches_total", { outcome: "failed" })).toBe(1);
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
