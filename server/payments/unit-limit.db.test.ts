import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSeed } from "../catalogue/seed.ts";
import type { AppDatabase } from "../db/database.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";

// One checkout may ask for at most MAX_UNITS_PER_PRODUCT units (10 by default) of each product: a
// basket asking for more is refused with 409 limit_exceeded before any unit is held or any gateway
// asked, so one shopper cannot hold a product's stock for the length of a reservation unpaid.

const LAPTOP = 17; // 1,000 units (catalogue/products.json)
const TEE = 2; // 1,000 units
const titleOf = (id: number) => readSeed().find((p) => p.id === id)!.title;
const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront" };

type Items = Array<{ id: number; amount: number }>;
const basket = (items: Items) => ({ items, total: items.reduce((sum, item) => sum + priceCents(item.id) * item.amount, 0) });

/** What the shop holds: each product's reserved units, and the payments and reservations written. */
async function held(database: AppDatabase) {
  const products = await database.db.selectFrom("products").select(["id", "reserved"]).where("reserved", "!=", 0).orderBy("id").execute();
  const payments = await database.db.selectFrom("payments").select("id").execute();
  const reservations = await database.db.selectFrom("reservations").select("payment_id").execute();
  return { products, payments: payments.length, reservations: reservations.length };
}
const NOTHING = { products: [], payments: 0, reservations: 0 };

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

describe.each(testEngines())("the units one checkout may ask for on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, catalogue: "database", env, stripeApi: stub.api });
    cleanup(() => services.catalogueEvents.close());
    await services.catalogueEvents.listening();
    const cookie = await signUp(app, "ada@example.com");
    const create = (items: Items) => app.request("/api/payment/create", jsonPost(basket(items), { cookie }));
    return { database, create };
  }

  it.each([
    ["the test gateway", {}],
    ["Stripe", STRIPE_ENV],
  ])("refuses 11 units of one product with 409 limit_exceeded on %s, holding nothing and asking no gateway", async (_name, env) => {
    const { database, create } = await setup(env);
    const asked = stub.requests.length;
    const refused = await create([
      { id: TEE, amount: 2 },
      { id: LAPTOP, amount: 11 },
    ]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { message: `You can buy at most 10 of ${titleOf(LAPTOP)}.`, code: "limit_exceeded" } });
    expect(await held(database)).toEqual(NOTHING);
    expect(stub.requests.length).toBe(asked);
  });

  it("takes 10 units of each of several products, and holds them", async () => {
    const { database, create } = await setup();
    const created = await create([
      { id: TEE, amount: 10 },
      { id: LAPTOP, amount: 10 },
    ]);
    expect(created.status).toBe(200);
    expect(await held(database)).toEqual({
      products: [
        { id: TEE, reserved: 10 },
        { id: LAPTOP, reserved: 10 },
      ],
      payments: 1,
      reservations: 2,
    });
  });

  it("keeps an earlier checkout's hold when a later one is refused, and refuses two lines of one product", async () => {
    const { database, create } = await setup();
    expect((await create([{ id: LAPTOP, amount: 3 }])).status).toBe(200);
    const before = await held(database);
    expect((await create([{ id: LAPTOP, amount: 100 }])).status).toBe(409);
    // Lines of the same product cannot add up past the limit: such a basket is refused whole.
    const split = await create([
      { id: LAPTOP, amount: 6 },
      { id: LAPTOP, amount: 6 },
    ]);
    expect(split.status).toBe(400);
    expect(await held(database)).toEqual(before);
  });

  it("takes its limit from MAX_UNITS_PER_PRODUCT", async () => {
    const { database, create } = await setup({ MAX_UNITS_PER_PRODUCT: "3" });
    const refused = await create([{ id: TEE, amount: 4 }]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { message: `You can buy at most 3 of ${titleOf(TEE)}.`, code: "limit_exceeded" } });
    expect(await held(database)).toEqual(NOTHING);
    expect((await create([{ id: TEE, amount: 3 }])).status).toBe(200);
  });
});
