import { afterAll, beforeAll, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { priceCents } from "../../test/support/checkout.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";

// A total over 99,999,999 cents (Stripe's limit) is refused with 422 and a clear message before
// any gateway call.

const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront" };

/** The priciest products, 999 of each, until the total passes $999,999.99. */
function hugeBasket(): { items: Array<{ id: number; amount: number }>; total: number } {
  const items: Array<{ id: number; amount: number }> = [];
  let total = 0;
  for (const { id } of [...products].sort((a, b) => b.price - a.price)) {
    if (total > 99_999_999) break;
    items.push({ id, amount: 999 });
    total += priceCents(id) * 999;
  }
  return { items, total };
}

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

describe.each(testEngines())("the amount limit on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  it.each([
    ["the test gateway", {}],
    ["Stripe", STRIPE_ENV],
  ])("refuses a total over 999,999.99 dollars with 422 on %s, asking no gateway", async (_name, env) => {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app } = await testApp({ database, env, stripeApi: stub.api });
    const cookie = await signUp(app, "ada@example.com");
    const asked = stub.requests.length;
    const basket = hugeBasket();
    const response = await app.request("/api/payment/create", jsonPost(basket, { cookie }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; code: string };
    expect(body.code).toBe("amount_too_large");
    expect(body.error).toMatch(/^A single payment can be at most \$999,999\.99; this basket comes to \$[\d,]+\.\d\d\. Please remove some items\.$/);
    expect(stub.requests.length).toBe(asked);
    expect(await database.db.selectFrom("payments").selectAll().execute()).toEqual([]);
  });
});
