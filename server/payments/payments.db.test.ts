import { describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { priceCents as cents, TEST_CARD as CARD } from "../../test/support/checkout.ts";
import type { AppDatabase } from "../db/database.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

const BASKET = [
  { id: 1, amount: 2 },
  { id: 17, amount: 1 },
];
const TOTAL = cents(1) * 2 + cents(17);

async function count(database: AppDatabase, table: "payments" | "orders"): Promise<number> {
  const row = await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(testEngines())("checkout on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const memory = memoryLogger();
    const { app } = await testApp({ database, log: memory.log });
    const alice = await signUp(app, "alice@example.com");
    const bob = await signUp(app, "bob@example.com");
    return { app, database, alice, bob, records: memory.records };
  }

  const create = (app: App, cookie: string | null, body: unknown) =>
    app.request("/api/payment/create", jsonPost(body, cookie ? { cookie } : {}));
  const confirm = (app: App, cookie: string | null, clientSecret: string, card = CARD) =>
    app.request("/api/payment/confirm", jsonPost({ clientSecret, card }, cookie ? { cookie } : {}));

  async function secretFor(app: App, cookie: string) {
    const response = await create(app, cookie, { items: BASKET, total: TOTAL });
    expect(response.status).toBe(200);
    return ((await response.json()) as { clientSecret: string }).clientSecret;
  }

  it("prices the basket on the server, stores the snapshot with the intent and answers its client secret", async () => {
    const { app, database, alice } = await setup();
    const clientSecret = await secretFor(app, alice);
    expect(clientSecret).toMatch(/^pi_[0-9a-f]{24}_secret_[0-9a-f]{32}$/);
    const row = await database.db.selectFrom("payments").selectAll().executeTakeFirstOrThrow();
    expect(row.amount).toBe(TOTAL);
    expect(row.status).toBe("requires_payment_method");
    const basket = JSON.parse(row.basket) as Array<{ id: number; amount: number; priceCents: number; title: string }>;
    expect(basket.map(({ id, amount, priceCents }) => ({ id, amount, priceCents }))).toEqual([
      { id: 1, amount: 2, priceCents: cents(1) },
      { id: 17, amount: 1, priceCents: cents(17) },
    ]);
    expect(basket[0]!.title).toBe(products.find((p) => p.id === 1)!.title);
  });

  it.each([
    ["a tampered total", { items: BASKET, total: TOTAL - 1 }, 409, /prices have changed: its total is now \$/],
    ["a total in dollars and cents", { items: BASKET, total: 14.99 }, 400, /total \(in cents\) must be a whole number/],
    ["an unknown product", { items: [{ id: 9999, amount: 1 }], total: 100 }, 422, /Product 9999 is not in the catalogue/],
    ["a zero amount", { items: [{ id: 1, amount: 0 }], total: 0 }, 400, /amount must be at least 1/],
    ["a negative amount", { items: [{ id: 1, amount: -1 }], total: -cents(1) }, 400, /amount must be at least 1/],
    ["a fractional amount", { items: [{ id: 1, amount: 1.5 }], total: cents(1) * 1.5 }, 400, /amount must be a whole number/],
    ["an amount as text", { items: [{ id: 1, amount: "2" }], total: cents(1) * 2 }, 400, /amount must be a number/],
    ["an empty basket", { items: [], total: 0 }, 400, /The basket is empty/],
    ["101 lines", { items: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, amount: 1 })), total: 1 }, 400, /at most 100 lines/],
    ["a product twice", { items: [{ id: 1, amount: 1 }, { id: 1, amount: 1 }], total: cents(1) * 2 }, 400, /only once/],
    ["no items at all", { total: 100 }, 400, /items/],
    ["malformed JSON", "{oops", 400, /not valid JSON/],
  ])("refuses %s with a clear 4xx and creates nothing", async (_label, body, status, message) => {
    const { app, database, alice } = await setup();
    const response = await create(app, alice, body);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(await count(database, "payments")).toBe(0);
  });

  it("says the new total as pages show money: $1,234.00, not $1234.00", async () => {
    const { app, alice } = await setup();
    const response = await create(app, alice, { items: [{ id: 17, amount: 1 }], total: cents(17) - 1 });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: "The basket's prices have changed: its total is now $1,234.00. Please review your basket.",
    });
  });

  it("refuses anonymous create, confirm and complete with 401", async () => {
    const { app, database, alice } = await setup();
    const clientSecret = await secretFor(app, alice);
    for (const [path, body] of [
      ["/api/payment/create", { items: BASKET, total: TOTAL }],
      ["/api/payment/confirm", { clientSecret, card: CARD }],
      ["/api/payment/complete", { paymentIntentId: clientSecret.split("_secret_")[0] }],
    ] as const) {
      const response = await app.request(path, jsonPost(body));
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: "You must log in to pay" });
    }
    expect(await count(database, "payments")).toBe(1);
    expect(await count(database, "orders")).toBe(0);
  });

  it("pays with 4242…, writes exactly one order from the snapshot, and refuses a second confirmation", async () => {
    const { app, database, alice } = await setup();
    const clientSecret = await secretFor(app, alice);
    const paid = await confirm(app, alice, clientSecret);
    expect(paid.status).toBe(200);
    const { paymentIntent } = (await paid.json()) as { paymentIntent: { id: string; amount: number; created: number } };
    expect(paymentIntent).toEqual({ id: clientSecret.split("_secret_")[0], amount: TOTAL, created: expect.any(Number) });
    expect(Math.abs(paymentIntent.created - Date.now() / 1000)).toBeLessThan(60);

    const order = await database.db.selectFrom("orders").selectAll().executeTakeFirstOrThrow();
    expect(order.id).toBe(paymentIntent.id);
    expect(order.amount).toBe(TOTAL);
    expect((JSON.parse(order.basket) as unknown[]).length).toBe(2);
    const payment = await database.db.selectFrom("payments").selectAll().executeTakeFirstOrThrow();
    expect([payment.status, payment.card_brand, payment.card_last4]).toEqual(["succeeded", "visa", "4242"]);

    const again = await confirm(app, alice, clientSecret);
    expect(again.status).toBe(409);
    expect(await count(database, "orders")).toBe(1);
    // complete in test mode finds the same order.
    const complete = await app.request("/api/payment/complete", jsonPost({ paymentIntentId: paymentIntent.id }, { cookie: alice }));
    expect(complete.status).toBe(200);
    expect(await complete.json()).toEqual({ order: paymentIntent });
    expect(await count(database, "orders")).toBe(1);
  });

  it.each([
    ["4000000000000002", 402, "card_declined", "Your card was declined."],
    ["4000000000009995", 402, "card_declined", "Your card has insufficient funds."],
    ["4000000000000069", 402, "expired_card", "Your card has expired."],
    ["4000000000000127", 402, "incorrect_cvc", "Your card's security code is incorrect."],
    ["4000000000000119", 402, "processing_error", "An error occurred while processing your card. Try again in a little bit."],
    ["4242424242424241", 402, "incorrect_number", "Your card number is invalid."],
  ])("declines %s with Stripe's %s and writes no order; the intent can still be paid", async (number, status, code, message) => {
    const { app, database, alice } = await setup();
    const clientSecret = await secretFor(app, alice);
    const declined = await confirm(app, alice, clientSecret, { ...CARD, number });
    expect(declined.status).toBe(status);
    expect(await declined.json()).toMatchObject({ error: { message, code } });
    expect(await count(database, "orders")).toBe(0);
    expect((await confirm(app, alice, clientSecret)).status).toBe(200);
    expect(await count(database, "orders")).toBe(1);
  });

  it("lets nobody but the intent's owner confirm or complete it", async () => {
    const { app, database, alice, bob } = await setup();
    const clientSecret = await secretFor(app, alice);
    const id = clientSecret.split("_secret_")[0]!;
    const byBob = await confirm(app, bob, clientSecret);
    expect(byBob.status).toBe(404);
    const forged = await confirm(app, alice, `${id}_secret_${"0".repeat(32)}`);
    expect(forged.status).toBe(404);
    expect(await count(database, "orders")).toBe(0);
    expect((await confirm(app, alice, clientSecret)).status).toBe(200);
    const completeByBob = await app.request("/api/payment/complete", jsonPost({ paymentIntentId: id }, { cookie: bob }));
    expect(completeByBob.status).toBe(404);
  });

  it("gives exactly one success and one order for 20 concurrent confirmations of one intent", async () => {
    const { app, database, alice } = await setup();
    const clientSecret = await secretFor(app, alice);
    const responses = await Promise.all(Array.from({ length: 20 }, () => confirm(app, alice, clientSecret)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await count(database, "orders")).toBe(1);
  });

  it("never stores or logs card numbers, CVCs or client secrets", async () => {
    const { app, database, alice, records } = await setup();
    const clientSecret = await secretFor(app, alice);
    await confirm(app, alice, clientSecret, { ...CARD, number: "4000000000000002", cvc: "987" });
    await confirm(app, alice, clientSecret, { ...CARD, cvc: "987" });
    const stored = JSON.stringify([
      await database.db.selectFrom("payments").selectAll().execute(),
      await database.db.selectFrom("orders").selectAll().execute(),
    ]);
    const logged = JSON.stringify(records);
    for (const secret of [clientSecret, clientSecret.split("_secret_")[1]!, "4242424242424242", "4000000000000002", '"987"']) {
      expect(stored).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect(logged).toContain("order placed");
  });
});
