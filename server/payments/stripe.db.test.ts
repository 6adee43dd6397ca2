import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import type { AppDatabase } from "../db/database.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { TEST_ORIGIN, jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";

const WEBHOOK_SECRET = "whsec_test_storefront";
const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET };
const PRICE = Math.round(products.find((p) => p.id === 3)!.price * 100);
// Only used to sign test payloads, as Stripe's own docs do; it makes no request.
const signer = new Stripe("sk_test_signer");

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

async function orders(database: AppDatabase): Promise<number> {
  const row = await database.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

function webhookEvent(intent: { id: string; amount: number; metadata: Record<string, string> }) {
  return JSON.stringify({
    id: `evt_${intent.id}`,
    object: "event",
    type: "payment_intent.succeeded",
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...intent, object: "payment_intent", status: "succeeded" } },
  });
}

describe.each(testEngines())("the Stripe gateway on %s (against a local Stripe stub)", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database, env: STRIPE_ENV, stripeApi: stub.api });
    const alice = await signUp(app, `alice.${engine}.${Date.now()}@example.com`);
    const created = await app.request("/api/payment/create", jsonPost({ items: [{ id: 3, amount: 2 }], total: PRICE * 2 }, { cookie: alice }));
    expect(created.status).toBe(200);
    const { clientSecret } = (await created.json()) as { clientSecret: string };
    const intent = stub.intents.get(clientSecret.split("_secret_")[0]!)!;
    return { app, services, database, alice, clientSecret, intent };
  }

  const webhook = (app: Awaited<ReturnType<typeof setup>>["app"], payload: string, signature: string) =>
    app.request("/api/payment/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });

  it("creates the PaymentIntent with the exact parameters and an idempotency key, and hands back Stripe's client secret", async () => {
    const { clientSecret, intent, database } = await setup();
    expect(clientSecret).toBe(intent.client_secret);
    const sent = stub.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").at(-1)!;
    const user = await database.db.selectFrom("user" as never).select("id" as never).executeTakeFirstOrThrow();
    expect(Object.fromEntries(sent.params)).toEqual({
      amount: String(PRICE * 2),
      currency: "usd",
      "allowed_payment_method_types[0]": "card",
      "metadata[user_id]": (user as { id: string }).id,
      "metadata[checkout_id]": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(sent.headers["idempotency-key"]).toBe(`checkout-${sent.params.get("metadata[checkout_id]")}`);
    expect(sent.headers.authorization).toBe("Bearer sk_test_storefront");
    // The client secret is Stripe's to keep: we store no hash of it in Stripe mode.
    const row = await database.db.selectFrom("payments").selectAll().executeTakeFirstOrThrow();
    expect([row.gateway, row.client_secret_hash, row.amount]).toEqual(["stripe", null, PRICE * 2]);
  });

  it("adds Stripe's script and frame origins to the CSP, and the test gateway's confirm is not there", async () => {
    const { app, alice, clientSecret } = await setup();
    const csp = (await app.request("/api/health")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    const confirm = await app.request("/api/payment/confirm", jsonPost({ clientSecret, card: { number: "4242424242424242", expMonth: 1, expYear: 2040, cvc: "123", postalCode: "1" } }, { cookie: alice }));
    expect(confirm.status).toBe(404);
  });

  it("completes only a succeeded intent of the same shopper and amount", async () => {
    const { app, database, alice, intent } = await setup();
    const complete = () => app.request("/api/payment/complete", jsonPost({ paymentIntentId: intent.id }, { cookie: alice }));
    expect((await complete()).status).toBe(409);
    intent.status = "succeeded";
    intent.amount += 1; // Stripe says a different amount than the one we priced: refuse
    expect((await complete()).status).toBe(409);
    intent.amount -= 1;
    const done = await complete();
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ order: { id: intent.id, amount: PRICE * 2, created: intent.created } });
    expect(await orders(database)).toBe(1);
    const bob = await signUp(app, `bob.${engine}.${Date.now()}@example.com`);
    expect((await app.request("/api/payment/complete", jsonPost({ paymentIntentId: intent.id }, { cookie: bob }))).status).toBe(404);
  });

  it("gives one order when the signed webhook is replayed 5 times in parallel with the browser's completion", async () => {
    const { app, database, alice, intent } = await setup();
    intent.status = "succeeded";
    const payload = webhookEvent(intent);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () => webhook(app, payload, signature)),
      app.request("/api/payment/complete", jsonPost({ paymentIntentId: intent.id }, { cookie: alice })),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await orders(database)).toBe(1);
  });

  it("answers a webhook with a bad or stale signature 400 and writes nothing", async () => {
    const { app, database, intent } = await setup();
    intent.status = "succeeded";
    const payload = webhookEvent(intent);
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    const stale = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const tampered = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    for (const [body, signature] of [
      [payload, wrongSecret],
      [payload, stale],
      [payload.replace(`"amount":${intent.amount}`, '"amount":1'), tampered],
      [payload, "t=1,v1=nonsense"],
    ] as const) {
      const response = await webhook(app, body, signature);
      expect(response.status).toBe(400);
    }
    const unsigned = await app.request("/api/payment/webhook", { method: "POST", headers: { origin: TEST_ORIGIN }, body: payload });
    expect(unsigned.status).toBe(400);
    expect(await orders(database)).toBe(0);
  });

  it("has the reconciler fulfil an intent whose completion never arrived", async () => {
    const { services, database, intent } = await setup();
    expect((await services.reconciler.run())?.fulfilled).toBe(0);
    intent.status = "succeeded"; // paid at Stripe; the browser closed before telling us
    expect((await services.reconciler.run())?.fulfilled).toBe(1);
    expect(await orders(database)).toBe(1);
    expect((await services.reconciler.run())?.fulfilled).toBe(0);
  });
});
