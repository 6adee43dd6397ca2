import { afterEach, describe, expect, inject, it } from "vitest";
import { listedOf } from "../../test/support/heard.ts";
import { priceCents as cents, TEST_CARD as CARD } from "../../test/support/checkout.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { countedPostgres } from "../../test/support/turn-counter.ts";

// A checkout's round trips to PostgreSQL, counted by a relay between the shop and the server: each
// one costs the shop a socket write and a wake-up, and holds the transaction's row locks meanwhile.
const url = inject("postgresUrl");

describe.skipIf(!url)("checkout round trips on PostgreSQL", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it("creates a payment in four round trips (the basket's products read by id; BEGIN with the give-back; the payment's and the holds' inserts with the products' update; the notification with COMMIT) and confirms it in three (the read; BEGIN, the payment's update, the sale and the order's insert; the mail's insert with COMMIT), parsing none of its statements again", async () => {
    const { database, relay } = await countedPostgres("trips", 2, cleanups);
    const { app, services } = await testApp({ database, catalogue: "database" });
    cleanups.push(() => services.close());
    await services.catalogueEvents.listening();
    const cookie = await signUp(app, "alice@example.com");
    const items = [
      { id: 1, amount: 2 },
      { id: 17, amount: 1 },
    ];
    const total = cents(1) * 2 + cents(17);
    // What the catalogue's listing facts say (held in memory: reading them costs no round trip).
    const available = async () => Number((await listedOf(services.catalogue, 17))!.stock);
    const create = async () => {
      const response = await app.request("/api/payment/create", jsonPost({ items, total }, { cookie }));
      expect(response.status).toBe(200);
      return ((await response.json()) as { clientSecret: string }).clientSecret;
    };
    const confirm = async (clientSecret: string) => expect((await app.request("/api/payment/confirm", jsonPost({ clientSecret, card: CARD }, { cookie }))).status).toBe(200);
    // A first checkout: the pool's connections open, the session is known.
    const stock = await available();
    await confirm(await create());
    await expect.poll(available).toBe(stock - 1);

    const parsedBefore = relay.parsed.length;
    // The create; the catalogue's copy takes the new figures its notification carries (no read).
    let clientSecret = "";
    const created = await relay.count(async () => {
      clientSecret = await create();
      await expect.poll(available).toBe(stock - 2);
    });
    // Selling units held until now changes nothing the catalogue shows: no notification, no read.
    const confirmed = await relay.count(() => confirm(clientSecret));
    // Each request of this test carries only the session's cookie (no signed cache of it), so the
    // session step reads the session and its user first: two round trips before the checkout's own.
    const session = 2;
    // The create reads its products whole first (prices, titles, pictures: the catalogue holds only
    // listing facts in memory), outside the transaction that holds the row locks.
    expect({ created, confirmed }).toEqual({ created: session + 4, confirmed: session + 3 });
    // On connections that have served a checkout, the checkout's own statements are all prepared:
    // PostgreSQL parses and plans none of them again (only better-auth's session reads, above).
    const parsed = relay.parsed.slice(parsedBefore).filter((statement) => !/^select "primary"\.\* from \(select \* from "(session|user)"/.test(statement));
    expect(parsed).toEqual([]);
  });
});
