import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_PRODUCTS, startFakeCatalogue } from "../test-support/fake-catalogue.ts";
import { memoryLogger } from "../test-support/logger.ts";
import { CatalogueUnavailableError } from "./catalogue.ts";
import { RemoteCatalogue } from "./remote.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
beforeAll(async () => {
  fake = await startFakeCatalogue();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.malformed = false;
  fake.state.requests.length = 0;
});

function remote(options: { cacheSeconds?: number; timeoutMs?: number; baseUrl?: string } = {}) {
  const { log, records } = memoryLogger();
  const catalogue = new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 0, log, ...options });
  return { catalogue, records };
}

describe("RemoteCatalogue", () => {
  it("reads products, categories and single products, prices in cents", async () => {
    const { catalogue } = remote();
    const products = await catalogue.list();
    expect(products.map((p) => [p.id, p.priceCents])).toEqual([
      [1, 10995],
      [2, 69500],
      [3, 6400],
    ]);
    expect(await catalogue.categories()).toEqual(["electronics", "jewelery", "men's clothing"]);
    expect((await catalogue.inCategory("men's clothing")).map((p) => p.title)).toEqual(["Remote Rucksack"]);
    expect(fake.state.requests).toContain("/products/category/men's%20clothing");
    expect((await catalogue.byId(2))?.title).toBe("Remote Ring");
    expect(catalogue.imageOrigins).toEqual([fake.url]);
  });

  it("treats FakeStore's empty answer for an unknown id as not found", async () => {
    expect(await remote().catalogue.byId(99)).toBeNull();
  });

  it("drops and logs malformed products, never returning them", async () => {
    fake.state.malformed = true;
    const { catalogue, records } = remote();
    expect((await catalogue.list()).map((p) => p.id)).toEqual(FAKE_PRODUCTS.map((p) => p.id));
    expect(records.filter((r) => r.msg === "catalogue product is malformed; dropped").map((r) => r.id)).toEqual([4, 5, undefined]);
  });

  it.each([
    ["garbage", "response is not JSON"],
    ["error", "HTTP 500"],
    ["hang", "no answer within 300 ms"],
  ] as const)("fails with CatalogueUnavailableError and a log line when the host answers %s", async (mode, reason) => {
    fake.state.mode = mode;
    const { catalogue, records } = remote();
    const started = Date.now();
    const error = await catalogue.list().catch((e: unknown) => e);
    expect(CatalogueUnavailableError.is(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(records).toContainEqual(expect.objectContaining({ level: 50, msg: "catalogue request failed", path: "/products", reason }));
  });

  it("fails fast when nothing listens at the address", async () => {
    const { catalogue } = remote({ baseUrl: "http://127.0.0.1:9" });
    await expect(catalogue.list()).rejects.toSatisfy(CatalogueUnavailableError.is);
  });

  it("caches answers for the configured time and shares one fetch among concurrent callers", async () => {
    const { catalogue } = remote({ cacheSeconds: 60 });
    await Promise.all([catalogue.list(), catalogue.list(), catalogue.list()]);
    await catalogue.list();
    expect(fake.state.requests.filter((p) => p === "/products")).toHaveLength(1);
  });

  it("fetches again when caching is off", async () => {
    const { catalogue } = remote({ cacheSeconds: 0 });
    await catalogue.list();
    await catalogue.list();
    expect(fake.state.requests.filter((p) => p === "/products")).toHaveLength(2);
  });

  it("serves the last good answer when the host fails later", async () => {
    const { log, records } = memoryLogger();
    const catalogue = new RemoteCatalogue({ baseUrl: fake.url, timeoutMs: 300, cacheSeconds: 0.05, log });
    expect(await catalogue.list()).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 80));
    fake.state.mode = "error";
    expect(await catalogue.list()).toHaveLength(3);
    expect(records.map((r) => r.msg)).toContain("catalogue unavailable; serving a stale copy");
  });
});
