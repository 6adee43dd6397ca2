import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_PRODUCTS, manualClock, nextRefresh, remoteOn, startFakeCatalogue } from "../../test/support/fake-catalogue.ts";
import type { RemoteCatalogueOptions } from "./remote.ts";

let fake: Awaited<ReturnType<typeof startFakeCatalogue>>;
beforeAll(async () => {
  fake = await startFakeCatalogue();
});
afterAll(() => fake.close());


const remote = (options: Partial<RemoteCatalogueOptions> = {}) => remoteOn(fake.url, options);

describe("RemoteCatalogue's change events", () => {
  it("tells its listeners when a refresh brings different products, and only then", async () => {
    const clock = manualClock();
    const { catalogue } = remote({ cacheSeconds: 0, now: clock.now });
    let changes = 0;
    const unsubscribe = catalogue.onChange(() => changes++);
    const refresh = async () => {
      clock.advance(1);
      const refreshed = nextRefresh(catalogue);
      await catalogue.list();
      await refreshed;
    };
    await refresh();
    await refresh();
    expect(changes).toBe(0);
    fake.state.malformed = true; // the valid products stay the same: no change
    await refresh();
    expect(changes).toBe(0);
    const original = FAKE_PRODUCTS[0]!.price;
    FAKE_PRODUCTS[0]!.price = 99.99;
    try {
      await refresh();
      expect(changes).toBe(1);
      unsubscribe();
      FAKE_PRODUCTS[0]!.price = original;
      await refresh();
      expect(changes).toBe(1);
    } finally {
      FAKE_PRODUCTS[0]!.price = original;
    }
  });

  it("keeps answering when a change listener throws", async () => {
    const clock = manualClock();
    const { catalogue, records } = remote({ cacheSeconds: 0, now: clock.now });
    catalogue.onChange(() => {
      throw new Error("index rebuild failed");
    });
    await catalogue.list();
    const original = FAKE_PRODUCTS[0]!.price;
    FAKE_PRODUCTS[0]!.price = 99.99;
    try {
      clock.advance(1);
      const refreshed = nextRefresh(catalogue);
      await catalogue.list();
      await refreshed;
      expect((await catalogue.byId(1))?.priceCents).toBe(9999);
      expect(catalogue.health().state).toBe("fresh");
      expect(records.map((r) => r.msg)).toContain("catalogue change listener failed");
    } finally {
      FAKE_PRODUCTS[0]!.price = original;
    }
  });
});
