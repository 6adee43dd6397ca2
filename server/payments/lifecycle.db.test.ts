import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "../db/database.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { checkout, postgresOrSkip, priceCents, TEST_CARD } from "../../test/support/checkout.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";
import { RECONCILER_LOCK } from "./reconciler.ts";

// Payment intents expire after PAYMENT_INTENT_TTL_HOURS and are cancelled at the gateway; the
// reconciler goes through every intent in flight (least recently checked first), one instance at a
// time, only when a test or main.ts runs it; creating intents is rate-limited per user.

const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront" };
const HOUR = 3_600_000;

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

async function statuses(database: AppDatabase): Promise<Record<string, number>> {
  const rows = await database.db.selectFrom("payments").select(["status"]).select((eb) => eb.fn.countAll<number>().as("n")).groupBy("status").execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

describe.each(testEngines())("the payment intents' lifecycle on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}, stripe = false) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, env: { ...(stripe ? STRIPE_ENV : {}), ...env }, stripeApi: stub.api });
    const cookie = await signUp(app, `ada.${engine}.${Date.now()}@example.com`);
    const uid = (await services.auth.sessionUser(new Headers({ cookie }))).user!.uid;
    return { app, services, database, cookie, uid };
  }

  it("does not let 120 abandoned Stripe intents starve a paid one, and cancels them at Stripe once expired", async () => {
    const { services, database, uid } = await setup({}, true);
    const ids: string[] = [];
    for (let i = 0; i < 121; i++) {
      const created = await services.payments.create(uid, { items: [{ id: 3, quantity: 1 }], total: priceCents(3) });
      if (!created.ok) throw new Error(created.message);
      ids.push(created.value.clientSecret.split("_secret_")[0]!);
    }
    // The newest was paid at Stripe, and its completion never arrived.
    stub.intents.get(ids.at(-1)!)!.status = "succeeded";
    const first = await services.reconciler.run();
    expect(first).toEqual({ fulfilled: 1, canceled: 0, checked: 121, refundsAsked: 0 });
    expect(await statuses(database)).toEqual({ requires_payment_method: 120, succeeded: 1 });
    // A day and an hour later, nobody came back for the others: cancelled at Stripe and here.
    const later = await services.reconciler.run(Date.now() + 25 * HOUR);
    expect(later).toEqual({ fulfilled: 0, canceled: 120, checked: 120, refundsAsked: 0 });
    expect(await statuses(database)).toEqual({ canceled: 120, succeeded: 1 });
    expect(ids.slice(0, -1).every((id) => stub.intents.get(id)!.status === "canceled")).toBe(true);
    expect(stub.requests.filter((r) => r.method === "POST" && r.path.endsWith("/cancel")).length).toBeGreaterThanOrEqual(120);
    expect(await services.reconciler.run(Date.now() + 26 * HOUR)).toEqual({ fulfilled: 0, canceled: 0, checked: 0, refundsAsked: 0 });
  });

  it("expires the test gateway's unpaid intents after PAYMENT_INTENT_TTL_HOURS, and an expired one can no longer be paid", async () => {
    const { app, services, database, cookie } = await setup({ PAYMENT_INTENT_TTL_HOURS: "2" });
    const created = await app.request("/api/payment/create", jsonPost({ items: [{ id: 3, amount: 1 }], total: priceCents(3) }, { cookie }));
    const { clientSecret } = (await created.json()) as { clientSecret: string };
    expect(await services.reconciler.run(Date.now() + 1 * HOUR)).toEqual({ fulfilled: 0, canceled: 0, checked: 1, refundsAsked: 0 });
    expect(await services.reconciler.run(Date.now() + 3 * HOUR)).toEqual({ fulfilled: 0, canceled: 1, checked: 1, refundsAsked: 0 });
    const paid = await app.request("/api/payment/confirm", jsonPost({ clientSecret, card: TEST_CARD }, { cookie }));
    expect(paid.status).toBe(409);
    expect(await paid.json()).toEqual({ error: "This payment has expired. Please start the checkout again.", code: "payment_intent_unexpected_state" });
    expect(await statuses(database)).toEqual({ canceled: 1 });
  });

  it("reconciles nothing while the services are merely built: main.ts starts the reconciler", async () => {
    const { services, database, uid } = await setup({}, true);
    const created = await services.payments.create(uid, { items: [{ id: 3, quantity: 1 }], total: priceCents(3) });
    if (!created.ok) throw new Error(created.message);
    stub.intents.get(created.value.clientSecret.split("_secret_")[0]!)!.status = "succeeded";
    const asked = stub.requests.length;
    const { services: another } = await testApp({ database, env: STRIPE_ENV, stripeApi: stub.api });
    cleanup(async () => {
      await another.orderEvents.close();
      await another.auth.close();
    });
    await another.orderEvents.listening();
    expect(stub.requests.length).toBe(asked);
    expect(await statuses(database)).toEqual({ requires_payment_method: 1 });
  });

  it("answers 429 with a message and Retry-After past PAYMENT_CREATE_RATE_LIMIT intents a minute, per user", async () => {
    const { app, cookie } = await setup({ PAYMENT_CREATE_RATE_LIMIT: "3" });
    const items = [{ id: 3, amount: 1 }];
    for (let i = 0; i < 3; i++) expect((await checkout(app.request, { origin: "http://localhost:3000", cookie, items })).created.status).toBe(200);
    const refused = await app.request("/api/payment/create", jsonPost({ items, total: priceCents(3) }, { cookie }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^Too many payment attempts\. Please try again in \d+ seconds\.$/) });
    const bea = await signUp(app, `bea.${engine}.${Date.now()}@example.com`);
    expect((await app.request("/api/payment/create", jsonPost({ items, total: priceCents(3) }, { cookie: bea }))).status).toBe(200);
  });
});

describe("the reconciler on PostgreSQL", () => {
  const cleanup = cleanupAfterEach();

  it("runs on one instance at a time (an advisory lock)", async (context) => {
    const url = postgresOrSkip(context);
    const database = await freshDatabase("postgres");
    cleanup(database.drop);
    const { services } = await testApp({ database });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanup(() => holder.end());
    await holder.query("select pg_advisory_lock($1)", [RECONCILER_LOCK]);
    expect(await services.reconciler.run()).toBeNull();
    await holder.query("select pg_advisory_unlock($1)", [RECONCILER_LOCK]);
    expect(await services.reconciler.run()).toEqual({ fulfilled: 0, canceled: 0, checked: 0, refundsAsked: 0 });
  });
});
