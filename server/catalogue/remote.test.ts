import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_PRODUCTS, manualClock, nextRefresh, remoteOn, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import { CatalogueUnavailableError } from "./catalogue.ts";
import type { RemoteCatalogueOptions } from "./remote.ts";

const categoriesOf = (products: Array<{ category: string }>) => [...new Set(products.map((p) => p.category))].sort();

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
beforeAll(async () => {
  fake = await startFakeCatalogue();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.malformed = false;
  fake.state.requests.length = 0;
  fake.state.held.length = 0;
});


const remote = (options: Partial<RemoteCatalogueOptions> = {}) => remoteOn(fake.url, options);

const listRequests = () => fake.state.requests.filter((p) => p === "/products").length;

/** What a read settles with: its value, or the error it failed with. */
const settled = <T>(read: () => Promise<T>): Promise<T | unknown> => read().catch((error: unknown) => error);

describe("RemoteCatalogue", () => {
  it("answers products, categories, category lists and single products from one request for the list, prices in cents", async () => {
    const { catalogue } = remote();
    const products = await catalogue.list();
    expect(products.map((p) => [p.id, p.priceCents])).toEqual([
      [1, 10995],
      [2, 69500],
      [3, 6400],
    ]);
    expect(categoriesOf(await catalogue.list())).toEqual(["electronics", "jewelery", "men's clothing"]);
    expect((await catalogue.list()).filter((p) => p.category === "men's clothing").map((p) => p.title)).toEqual(["Remote Rucksack"]);
    expect((await catalogue.list()).filter((p) => p.category === "toys")).toEqual([]);
    expect((await catalogue.byId(2))?.title).toBe("Remote Ring");
    expect(await catalogue.byId(99)).toBeNull();
    expect(fake.state.requests).toEqual(["/products"]);
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
    expect(await settled(() => catalogue.list())).toBeInstanceOf(CatalogueUnavailableError);
    expect(records).toContainEqual(expect.objectContaining({ level: 50, msg: "catalogue request failed", path: "/products", reason }));
  });

  it("fails fast when nothing listens at the address", async () => {
    const { catalogue } = remote({ baseUrl: "http://127.0.0.1:9" });
    await expect(catalogue.list()).rejects.toBeInstanceOf(CatalogueUnavailableError);
  });

  it("keeps a fresh copy for the configured time, and concurrent readers share one request", async () => {
    const clock = manualClock();
    const { catalogue } = remote({ cacheSeconds: 60, now: clock.now });
    await Promise.all([catalogue.list(), catalogue.byId(1), catalogue.listed(), catalogue.byIds([1, 2])]);
    clock.advance(59_000);
    await catalogue.list();
    expect(listRequests()).toBe(1);
  });

  it("answers a copy past its freshness at once and refreshes it in the background, one refresh at a time", async () => {
    const clock = manualClock();
    // A minute's timeout: a read that waited for the refresh would outlast the test.
    const { catalogue } = remote({ cacheSeconds: 60, timeoutMs: 60_000, now: clock.now });
    await catalogue.list();
    clock.advance(61_000);
    fake.state.mode = "hang";
    const refreshed = nextRefresh(catalogue);
    for (let i = 0; i < 5; i++) expect(await settled(() => catalogue.list())).toHaveLength(3);
    await expect.poll(() => fake.state.held.length).toBe(1);
    fake.release();
    await refreshed;
    // One refresh went out for the five reads, and the host's silence left the copy in place.
    expect(listRequests()).toBe(2);
    expect(await catalogue.byId(3)).toMatchObject({ title: "Remote Drive" });
  });

  it("picks up the host's new data with the background refresh", async () => {
    const clock = manualClock();
    const { catalogue } = remote({ cacheSeconds: 60, now: clock.now });
    await catalogue.list();
    const original = FAKE_PRODUCTS[0]!.price;
    FAKE_PRODUCTS[0]!.price = 99.99;
    try {
      clock.advance(60_000);
      const refreshed = nextRefresh(catalogue);
      expect((await catalogue.byId(1))?.priceCents).toBe(10995); // the stale copy, at once
      await refreshed;
      expect((await catalogue.byId(1))?.priceCents).toBe(9999);
    } finally {
      FAKE_PRODUCTS[0]!.price = original;
    }
  });

  it("answers categories, category lists and single products from the last good list while the host is down", async () => {
    const clock = manualClock();
    const { catalogue, records } = remote({ cacheSeconds: 0, now: clock.now });
    expect(await catalogue.list()).toHaveLength(3);
    fake.state.mode = "error";
    clock.advance(1);
    const refreshed = nextRefresh(catalogue);
    await catalogue.list();
    expect(await refreshed).toMatchObject({ ok: false });
    expect(categoriesOf(await catalogue.list())).toEqual(["electronics", "jewelery", "men's clothing"]);
    expect((await catalogue.list()).filter((p) => p.category === "jewelery").map((p) => p.id)).toEqual([2]);
    for (const product of FAKE_PRODUCTS) expect((await catalogue.byId(product.id))?.title).toBe(product.title);
    expect(records.map((r) => r.msg)).toContain("catalogue unavailable; serving the last good copy");
  });

  it("keeps the last good copy when the host answers a list of nothing but broken products", async () => {
    const clock = manualClock();
    const { catalogue } = remote({ cacheSeconds: 0, now: clock.now });
    await catalogue.list();
    const saved = FAKE_PRODUCTS.splice(0, FAKE_PRODUCTS.length);
    try {
      FAKE_PRODUCTS.push({ ...saved[0]!, price: -1 });
      clock.advance(1);
      const refreshed = nextRefresh(catalogue);
      await catalogue.list();
      expect(await refreshed).toMatchObject({ ok: false });
      expect(await catalogue.list()).toHaveLength(3);
      expect(catalogue.health()).toMatchObject({ state: "stale", error: expect.stringContaining("no product in the response is well-formed") });
    } finally {
      FAKE_PRODUCTS.splice(0, FAKE_PRODUCTS.length, ...saved);
    }
  });

  it("stops asking a failing host for a growing pause, and starts again after a success", async () => {
    const clock = manualClock();
    const { catalogue } = remote({ cacheSeconds: 0, now: clock.now, breaker: { baseMs: 2_000, maxMs: 8_000 } });
    await catalogue.list();
    fake.state.mode = "error";
    // A read past the pause starts a refresh (waited for here); one within it asks nothing.
    const attempt = async (refreshes: boolean) => {
      const refreshed = refreshes ? nextRefresh(catalogue) : null;
      await catalogue.list();
      await refreshed;
      return listRequests();
    };
    clock.advance(1);
    expect(await attempt(true)).toBe(2); // fails: pause 2 s
    clock.advance(1_999);
    expect(await attempt(false)).toBe(2);
    clock.advance(1);
    expect(await attempt(true)).toBe(3); // fails again: pause 4 s
    clock.advance(3_999);
    expect(await attempt(false)).toBe(3);
    clock.advance(1);
    expect(await attempt(true)).toBe(4); // pause 8 s
    clock.advance(8_000);
    expect(await attempt(true)).toBe(5); // pause stays at the longest, 8 s
    clock.advance(7_999);
    expect(await attempt(false)).toBe(5);
    fake.state.mode = "ok";
    clock.advance(1);
    expect(await attempt(true)).toBe(6); // answers: the breaker closes
    clock.advance(1);
    expect(await attempt(true)).toBe(7);
  });

  it("without any copy, waits for the host only until its first failure, then answers at once", async () => {
    const clock = manualClock();
    fake.state.mode = "hang";
    const { catalogue, records } = remote({ cacheSeconds: 60, timeoutMs: 500, now: clock.now });
    expect(await settled(() => catalogue.list())).toBeInstanceOf(CatalogueUnavailableError);
    // It gave up at the timeout, the host never having answered.
    expect(records).toContainEqual(expect.objectContaining({ msg: "catalogue request failed", reason: "no answer within 500 ms" }));
    const reads: Array<() => Promise<unknown>> = [() => catalogue.list(), () => catalogue.byId(1), () => catalogue.listed(), () => catalogue.byIds([1, 2])];
    for (const read of reads) {
      expect(await settled(read)).toBeInstanceOf(CatalogueUnavailableError);
    }
    // None of them asked the host, so none of them waited for it.
    expect(listRequests()).toBe(1);
    // After the pause, one attempt runs in the background; the reader still does not wait for it.
    fake.state.held.length = 0;
    clock.advance(2_000);
    let probeSettled = false;
    const probe = settled(() => catalogue.list()).finally(() => (probeSettled = true));
    await expect.poll(() => fake.state.held.length).toBe(1);
    // The attempt has reached the host, which holds it; the read had already answered.
    expect(probeSettled).toBe(true);
    expect(await probe).toBeInstanceOf(CatalogueUnavailableError);
    expect(listRequests()).toBe(2);
    fake.state.mode = "ok";
    const refreshed = nextRefresh(catalogue);
    fake.release();
    expect(await refreshed).toEqual({ ok: true });
    expect(await catalogue.list()).toHaveLength(3);
  });

  it("reports its state for the health check: unavailable, fresh, stale since the first failure", async () => {
    const clock = manualClock(Date.parse("2025-06-01T12:00:00Z"));
    fake.state.mode = "error";
    const { catalogue } = remote({ cacheSeconds: 0, now: clock.now });
    expect(catalogue.health()).toEqual({
      source: "remote",
      state: "unavailable",
      since: "2025-06-01T12:00:00.000Z",
      error: "no answer from the catalogue host yet",
    });
    await catalogue.list().catch(() => {});
    expect(catalogue.health()).toEqual({
      source: "remote",
      state: "unavailable",
      since: "2025-06-01T12:00:00.000Z",
      error: "Catalogue request /products failed: HTTP 500",
      retryAt: "2025-06-01T12:00:02.000Z",
    });
    fake.state.mode = "ok";
    clock.advance(60_000);
    const recovered = nextRefresh(catalogue);
    catalogue.warmUp();
    await recovered;
    expect(catalogue.health()).toEqual({ source: "remote", state: "fresh", updatedAt: "2025-06-01T12:01:00.000Z" });
    fake.state.mode = "error";
    clock.advance(30_000);
    const failed = nextRefresh(catalogue);
    await catalogue.list();
    await failed;
    clock.advance(10_000);
    expect(catalogue.health()).toEqual({
      source: "remote",
      state: "stale",
      since: "2025-06-01T12:01:30.000Z",
      updatedAt: "2025-06-01T12:01:00.000Z",
      error: "Catalogue request /products failed: HTTP 500",
    });
  });
});
