import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { openDatabase } from "../db/database.ts";
import { FAKE_PRODUCTS, startFakeCatalogue } from "../test-support/fake-catalogue.ts";
import { memoryLogger } from "../test-support/logger.ts";
import { builtPages } from "../test-support/pages.ts";
import { RemoteCatalogue } from "./remote.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
let app: ReturnType<typeof createApp>;
let records: Array<Record<string, unknown>>;

beforeAll(async () => {
  fake = await startFakeCatalogue();
  const memory = memoryLogger();
  records = memory.records;
  app = createApp({
    config: { NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" },
    log: memory.log,
    database: openDatabase({ engine: "sqlite", file: ":memory:" }),
    catalogue: new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 0, log: memory.log }),
    ssr: await builtPages(),
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.malformed = false;
});

async function page(path: string) {
  const response = await app.request(path);
  return { status: response.status, html: await response.text(), csp: response.headers.get("content-security-policy") ?? "" };
}

describe("pages over a remote FakeStore catalogue", () => {
  it("render the remote products, and allow their images in the CSP", async () => {
    const home = await page("/");
    expect(home.status).toBe(200);
    for (const product of FAKE_PRODUCTS) expect(home.html).toContain(product.title);
    expect(home.html).toContain("$109.95");
    expect(home.html).toContain('src="https://img.example/1.png"');
    expect(home.csp).toContain(`img-src 'self' data: ${fake.url}`);
    const results = await page(`/results/${encodeURIComponent("jewelery")}`);
    expect(results.html).toContain("Remote Ring");
    expect(results.html).not.toContain("Remote Drive");
    const product = await page("/products/3");
    expect(product.status).toBe(200);
    expect(product.html).toContain("Remote Drive");
  });

  it("never render a malformed product", async () => {
    fake.state.malformed = true;
    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.html).toContain("Remote Ring");
    expect(home.html).not.toContain("alert(1)");
  });

  it.each(["garbage", "error", "hang"] as const)("degrade as the spec says when the host answers %s, and keep serving", async (mode) => {
    fake.state.mode = mode;
    records.length = 0;
    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.html).not.toContain("Remote Ring");
    expect(home.html).toContain('class="product-grid"');
    const results = await page("/results/jewelery");
    expect(results.status).toBe(200);
    expect(results.html).toContain("No products found in the <!-- -->jewelery<!-- --> category.");
    const product = await page("/products/2");
    expect(product.status).toBe(404);
    expect(product.html).toContain("Product not found.");
    expect(records.some((r) => r.msg === "catalogue request failed")).toBe(true);
    const api = await app.request("/api/catalogue/products");
    expect(api.status).toBe(502);
    expect(await api.json()).toEqual({ error: "The catalogue is unavailable; try again shortly." });
    expect((await app.request("/api/health")).status).toBe(200);

    fake.state.mode = "ok";
    expect((await page("/")).html).toContain("Remote Ring");
  });

  it("degrade the same way when the host is down altogether", async () => {
    const { log } = memoryLogger();
    const down = createApp({
      config: { NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" },
      log,
      database: openDatabase({ engine: "sqlite", file: ":memory:" }),
      catalogue: new RemoteCatalogue({ baseUrl: "http://127.0.0.1:9", timeoutMs: 300, cacheSeconds: 0, log }),
      ssr: await builtPages(),
    });
    expect((await down.request("/")).status).toBe(200);
    const product = await down.request("/products/1");
    expect(product.status).toBe(404);
    expect(await product.text()).toContain("Product not found.");
  });
});
