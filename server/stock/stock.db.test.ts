import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listedOf } from "../../test/support/heard.ts";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import { readSeed, seedCatalogue } from "../catalogue/seed.ts";
import type { AppDatabase } from "../db/database.ts";
import { lineFrom } from "../../lib/basket.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { parseMetrics, sampleValue } from "../../test/support/prometheus-text.ts";
import type { Services } from "../services.ts";
import { priceCents, TEST_CARD } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** storefront_stock_reservations_total by outcome, as /metrics shows it. */
async function reservations(services: Services) {
  const samples = parseMetrics(await services.metrics.registry.metrics());
  const of = (outcome: string) => sampleValue(samples, "storefront_stock_reservations_total", { outcome });
  return { reserved: of("reserved"), refused: of("refused"), expired: of("expired"), sold: of("sold") };
}

// Product 8 starts with 3 units (catalogue/products.json).
const RING = 8;
const RING_TITLE = readSeed().find((p) => p.id === RING)!.title;

const stockOf = async (database: AppDatabase, id: number) =>
  database.db.selectFrom("products").select(["stock", "reserved"]).where("id", "=", id).executeTakeFirstOrThrow();
const count = async (database: AppDatabase, table: "payments" | "orders" | "products") =>
  Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

/** A basket line of a seeded product, priced as the catalogue prices it. */
const line = (id: number, amount: number) => lineFrom({ id, title: readSeed().find((p) => p.id === id)!.title, image: "", rating: { rate: 0, count: 0 }, priceCents: priceCents(id), description: "" }, amount);

describe.each(testEngines())("stock on %s", (engine) => {
  const cleanup = cleanupAfterEach();
  afterEach(() => void vi.useRealTimers());

  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, catalogue: "database" });
    cleanup(() => services.catalogueEvents.close());
    await services.catalogueEvents.listening();
    const alice = await signUp(app, "alice@example.com");
    const bob = await signUp(app, "bob@example.com");
    return { app, services, database, alice, bob, catalogue: services.catalogue as DatabaseCatalogue };
  }

  const create = (app: App, cookie: string, amount: number, id = RING) =>
    app.request("/api/payment/create", jsonPost({ items: [{ id, amount }], total: priceCents(id) * amount }, { cookie }));
  const secret = async (response: Response) => ((await response.json()) as { clientSecret: string }).clientSecret;
  const confirm = (app: App, cookie: string, clientSecret: string) => app.request("/api/payment/confirm", jsonPost({ clientSecret, card: TEST_CARD }, { cookie }));

  it("seeds the catalogue once: a second run, or two at once, neither duplicates nor overwrites", async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const runs = await Promise.all([seedCatalogue(database), seedCatalogue(database)]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await count(database, "products")).toBe(readSeed().length);
    await database.db.updateTable("products").set({ stock: 7 }).where("id", "=", 1).execute();
    expect(await seedCatalogue(database)).toBe(false);
    expect(await count(database, "products")).toBe(readSeed().length);
    expect((await stockOf(database, 1)).stock).toBe(7);
  });

  it("reserves units at create; a line beyond what is available is refused with 409 and nothing is created", async () => {
    const { app, database, alice, bob, catalogue } = await setup();
    expect((await catalogue.byId(RING))!.stock).toBe(3);
    expect((await create(app, alice, 2)).status).toBe(200);
    expect(await stockOf(database, RING)).toEqual({ stock: 3, reserved: 2 });
    await vi.waitFor(async () => expect((await catalogue.byId(RING))!.stock).toBe(1));
    const refused = await create(app, bob, 2);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { message: `Only 1 left of ${RING_TITLE}.`, code: "insufficient_stock" } });
    expect(await count(database, "payments")).toBe(1);
    expect(await stockOf(database, RING)).toEqual({ stock: 3, reserved: 2 });
  });

  it("turns the reservation into a sale when the order is written; then the product is out of stock", async () => {
    const { app, services, database, alice, bob, catalogue } = await setup();
    const paid = await confirm(app, alice, await secret(await create(app, alice, 3)));
    expect(paid.status).toBe(200);
    expect(await stockOf(database, RING)).toEqual({ stock: 0, reserved: 0 });
    await vi.waitFor(async () => expect((await catalogue.byId(RING))!.stock).toBe(0));
    const refused = await create(app, bob, 1);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { message: `${RING_TITLE} is out of stock.`, code: "insufficient_stock" } });
    expect(await reservations(services)).toEqual({ reserved: 1, refused: 1, expired: 0, sold: 1 });
  });

  it("selling units still held announces no catalogue change (what is available stays the same)", async () => {
    const { app, services, database, alice } = await setup();
    const heard: Array<number[] | null> = [];
    services.catalogueEvents.subscribe((event) => heard.push(event.ids));
    const clientSecret = await secret(await create(app, alice, 2));
    await vi.waitFor(() => expect(heard).toEqual([[RING]]));
    expect((await confirm(app, alice, clientSecret)).status).toBe(200);
    expect(await stockOf(database, RING)).toEqual({ stock: 1, reserved: 0 });
    // Events arrive in the order of their commits: the sale's, had there been one, before this one.
    await database.db.transaction().execute((trx) => services.catalogueEvents.publish(trx, { ids: [1] }));
    await vi.waitFor(() => expect(heard.at(-1)).toEqual([1]));
    expect(heard).toEqual([[RING], [1]]);
  });

  it("a basket of several products: one short line refuses the whole checkout; a paid one sells each line", async () => {
    const { app, database, alice, bob } = await setup();
    const basket = (lines: Array<[number, number]>) => ({ items: lines.map(([id, amount]) => ({ id, amount })), total: lines.reduce((sum, [id, amount]) => sum + priceCents(id) * amount, 0) });
    const before = { 1: await stockOf(database, 1), 2: await stockOf(database, 2) };
    // Products 1 and 2 have plenty; the ring (8) has 3: the last line is short, so nothing is held.
    const refused = await app.request("/api/payment/create", jsonPost(basket([[1, 2], [2, 1], [RING, 4]]), { cookie: bob }));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { message: `Only 3 left of ${RING_TITLE}.`, code: "insufficient_stock" } });
    expect([await stockOf(database, 1), await stockOf(database, 2), await stockOf(database, RING)]).toEqual([before[1], before[2], { stock: 3, reserved: 0 }]);
    const created = await app.request("/api/payment/create", jsonPost(basket([[RING, 2], [2, 1], [1, 2]]), { cookie: alice }));
    expect(created.status).toBe(200);
    expect([await stockOf(database, 1), await stockOf(database, 2), await stockOf(database, RING)]).toEqual([
      { stock: before[1].stock, reserved: 2 },
      { stock: before[2].stock, reserved: 1 },
      { stock: 3, reserved: 2 },
    ]);
    // Bob's basket now finds 1 ring left, counting nothing of Alice's.
    const short = await app.request("/api/payment/create", jsonPost(basket([[1, 1], [RING, 2]]), { cookie: bob }));
    expect(await short.json()).toEqual({ error: { message: `Only 1 left of ${RING_TITLE}.`, code: "insufficient_stock" } });
    expect((await confirm(app, alice, await secret(created))).status).toBe(200);
    expect([await stockOf(database, 1), await stockOf(database, 2), await stockOf(database, RING)]).toEqual([
      { stock: before[1].stock - 2, reserved: 0 },
      { stock: before[2].stock - 1, reserved: 0 },
      { stock: 1, reserved: 0 },
    ]);
    // Alice's next checkout may take what is left, her own earlier units aside.
    const again = await app.request("/api/payment/create", jsonPost(basket([[RING, 1], [1, 1]]), { cookie: alice }));
    expect(again.status).toBe(200);
    const replaced = await app.request("/api/payment/create", jsonPost(basket([[RING, 1]]), { cookie: alice }));
    expect(replaced.status).toBe(200);
    expect([await stockOf(database, 1), await stockOf(database, RING)]).toEqual([
      { stock: before[1].stock - 2, reserved: 0 },
      { stock: 1, reserved: 1 },
    ]);
  });

  it("a line found short only inside the reservation's transaction refuses the whole basket and changes no product", async () => {
    // As when another checkout takes the units between the early check and this transaction: the
    // one update of every product leaves the short row alone, and the whole transaction rolls back.
    const { services, database } = await setup();
    const before = [await stockOf(database, 1), await stockOf(database, 2), await stockOf(database, RING)];
    let recorded = 0;
    const refused = await services.stock!.reserve({ id: "pi_short_inside", userId: "nobody", basket: [] }, [line(1, 2), line(RING, 4), line(2, 1)], async () => void recorded++);
    expect(refused).toEqual({ ok: false, status: 409, message: `Only 3 left of ${RING_TITLE}.`, code: "insufficient_stock" });
    expect(recorded).toBe(1);
    expect([await stockOf(database, 1), await stockOf(database, 2), await stockOf(database, RING)]).toEqual(before);
    expect(await database.db.selectFrom("reservations").select("payment_id").where("payment_id", "=", "pi_short_inside").execute()).toEqual([]);
  });

  it("the early check reads only lines the catalogue's copy finds short; a copy that is behind still meets the reservation's refusal", async () => {
    const { services, database } = await setup();
    const stock = services.stock!;
    // The database has no ring left, and no event says so: the copy still shows 3.
    await database.db.updateTable("products").set({ reserved: 3 }).where("id", "=", RING).execute();
    const outOfStock = { ok: false, status: 409, message: `${RING_TITLE} is out of stock.`, code: "insufficient_stock" };
    expect(await stock.check("nobody", [line(RING, 2)], new Map([[RING, 3]]))).toBeNull();
    expect(await stock.check("nobody", [line(RING, 2)], new Map([[RING, 1]]))).toEqual(outOfStock);
    expect(await stock.check("nobody", [line(RING, 2)], new Map([[RING, null]]))).toEqual(outOfStock);
    expect(await stock.check("nobody", [line(RING, 2)])).toEqual(outOfStock);
    expect(await stock.reserve({ id: "pi_copy_behind", userId: "nobody", basket: [] }, [line(RING, 2)], async () => {})).toEqual(outOfStock);
    expect(await stockOf(database, RING)).toEqual({ stock: 3, reserved: 3 });
  });

  // A reservation's catalogue notification carries the products' new figures: the listed copy
  // takes them without reading the products again. A price changed in the database behind the
  // copy's back (no notification) shows whether a product was read again: its count of reviews,
  // which the copy holds and a checkout does not look at.
  const listed = async (catalogue: DatabaseCatalogue, id: number) => (await listedOf(catalogue, id))!;
  const recountQuietly = (database: AppDatabase, id: number, count: number) => database.db.updateTable("products").set({ rating_count: count }).where("id", "=", id).execute();

  it("a reservation's new figures reach the catalogue's copy as they are, without reading the product again", async () => {
    const { app, database, alice, catalogue } = await setup();
    const reviews = (await listed(catalogue, RING)).rating.count;
    await recountQuietly(database, RING, 1);
    expect((await create(app, alice, 2)).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(catalogue, RING)).stock).toBe(1));
    await catalogue.settled();
    expect((await listed(catalogue, RING)).rating.count).toBe(reviews);
  });

  it("a checkout that gives back an earlier basket's other products has them read again (their lapsed holds are not known)", async () => {
    const { app, database, alice, catalogue } = await setup();
    expect((await create(app, alice, 1, 2)).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(catalogue, 2)).stock).toBe(999));
    await recountQuietly(database, 2, 2);
    await recountQuietly(database, RING, 1);
    // Alice's new basket holds only the ring: product 2's reservation is given back.
    expect((await create(app, alice, 1)).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(catalogue, 2)).stock).toBe(1000));
    await catalogue.settled();
    expect((await listed(catalogue, 2)).rating.count).toBe(2);
    expect((await listed(catalogue, RING)).rating.count).toBe(1);
    expect((await listed(catalogue, RING)).stock).toBe(2);
  });

  it.runIf(engine === "postgres")("a notification whose figures do not add up has its products read again", async () => {
    const { database, catalogue } = await setup();
    const notify = (payload: unknown) => sql`select pg_notify('storefront_catalogue', ${JSON.stringify(payload)})`.execute(database.db);
    const reviews = (await listed(catalogue, RING)).rating.count;
    await recountQuietly(database, RING, 1);
    await notify({ ids: [RING], figures: [{ id: RING, stock: 7, reserved: 1 }] });
    await vi.waitFor(async () => expect((await listed(catalogue, RING)).stock).toBe(6));
    expect((await listed(catalogue, RING)).rating.count).toBe(reviews);
    for (const figures of [[{ id: RING, stock: "7", reserved: 1 }], [{ id: 2, stock: 7, reserved: 1 }], [], "7"]) await notify({ ids: [RING], figures });
    await vi.waitFor(async () => expect((await listed(catalogue, RING)).rating.count).toBe(1));
    await catalogue.settled();
    expect((await listed(catalogue, RING)).stock).toBe(3);
  });

  it("a new create by the same shopper releases the earlier reservation, which can no longer be paid", async () => {
    const { app, database, alice } = await setup();
    const first = await secret(await create(app, alice, 3));
    const second = await create(app, alice, 3);
    expect(second.status).toBe(200);
    expect(await stockOf(database, RING)).toEqual({ stock: 3, reserved: 3 });
    const late = await confirm(app, alice, first);
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: { message: "Your reservation expired. Please review your basket.", code: "reservation_expired" } });
    expect((await confirm(app, alice, await secret(second))).status).toBe(200);
    expect(await stockOf(database, RING)).toEqual({ stock: 0, reserved: 0 });
    expect(await count(database, "orders")).toBe(1);
  });

  it("an expired reservation gives its units back when read and by the sweeper, and cannot be confirmed (fake clock)", async () => {
    const { app, services, database, alice, bob } = await setup();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const stale = await secret(await create(app, alice, 3));
    vi.setSystemTime(Date.now() + 16 * 60_000);
    // Read: bob's create finds alice's units lapsed and takes them.
    const bobs = await create(app, bob, 3);
    expect(bobs.status).toBe(200);
    const late = await confirm(app, alice, stale);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe("reservation_expired");
    // Sweeper: bob's lapse too, with nobody reading.
    vi.setSystemTime(Date.now() + 16 * 60_000);
    expect(await services.stock!.sweep()).toBe(1);
    expect(await stockOf(database, RING)).toEqual({ stock: 3, reserved: 0 });
    const statuses = await database.db.selectFrom("payments").select("status").execute();
    expect(statuses.map((row) => row.status)).toEqual(["canceled", "canceled"]);
    expect(await count(database, "orders")).toBe(0);
    expect(await reservations(services)).toEqual({ reserved: 2, refused: 0, expired: 2, sold: 0 });
  });

  it("a payment the gateway took after its reservation expired is written anyway, marked oversold", async () => {
    const { app, services, database, alice, bob } = await setup();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const stale = await secret(await create(app, alice, 3));
    const paymentId = stale.split("_secret_")[0]!;
    vi.setSystemTime(Date.now() + 16 * 60_000);
    expect((await confirm(app, bob, await secret(await create(app, bob, 3)))).status).toBe(200);
    // As Stripe's late success would: the order and the sale in one transaction.
    await database.db.transaction().execute(async (trx) => {
      await services.orders.place(trx, "alice", { id: paymentId, amountCents: priceCents(RING) * 3, basket: [], created: Date.now() });
      await services.stock!.sell(trx, { id: paymentId, userId: "alice", basket: [{ id: RING, quantity: 3 }] });
    });
    const order = await database.db.selectFrom("orders").select("status").where("id", "=", paymentId).executeTakeFirstOrThrow();
    expect(order.status).toBe("oversold");
    expect((await stockOf(database, RING)).stock).toBe(-3);
  });
});
