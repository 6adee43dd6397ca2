import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { heardFacts } from "../../test/support/heard.ts";
import type { DatabaseCatalogue } from "../catalogue/database.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";

// A paid order is never dropped. Stripe may take the money after the reservation expired and its
// units went to someone else: the order is written anyway, marked oversold.
const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront", STRIPE_WEBHOOK_SECRET: "whsec_test_storefront" };
const RING = 8; // 3 units

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

describe.each(testEngines())("a late Stripe payment on %s", (engine) => {
  const cleanup = cleanupAfterEach();
  afterEach(() => void vi.useRealTimers());

  it("is written as an oversold order when its units went to another shopper meanwhile", async () => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, catalogue: "database", env: STRIPE_ENV, stripeApi: stub.api });
    cleanup(() => services.catalogueEvents.close());
    const alice = await signUp(app, `alice.${engine}.${Date.now()}@example.com`);
    const bob = await signUp(app, `bob.${engine}.${Date.now()}@example.com`);
    const basket = { items: [{ id: RING, amount: 3 }], total: priceCents(RING) * 3 };
    const intentOf = async (response: Response) => {
      expect(response.status).toBe(200);
      return stub.intents.get(((await response.json()) as { clientSecret: string }).clientSecret.split("_secret_")[0]!)!;
    };
    const complete = (cookie: string, id: string) => app.request("/api/payment/complete", jsonPost({ paymentIntentId: id }, { cookie }));

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const late = await intentOf(await app.request("/api/payment/create", jsonPost(basket, { cookie: alice })));
    vi.setSystemTime(Date.now() + 16 * 60_000);
    const prompt = await intentOf(await app.request("/api/payment/create", jsonPost(basket, { cookie: bob })));
    prompt.status = "succeeded";
    expect((await complete(bob, prompt.id)).status).toBe(200);

    late.status = "succeeded"; // Stripe took alice's money after all
    const written = await complete(alice, late.id);
    expect(written.status).toBe(200);
    const rows = await database.db.selectFrom("orders").select(["id", "status"]).orderBy("status").execute();
    expect(rows).toEqual([
      { id: late.id, status: "oversold" },
      { id: prompt.id, status: "paid" },
    ]);
    const product = await database.db.selectFrom("products").select(["stock", "reserved"]).where("id", "=", RING).executeTakeFirstOrThrow();
    expect(product).toEqual({ stock: -3, reserved: 0 });
    // Shoppers never see a negative number.
    await heardFacts(services.catalogue as DatabaseCatalogue, RING, (listed) => listed?.stock === 0);
  });
});
