import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { signUpAdmin } from "../../test/support/admin.ts";
import { priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { postRefund } from "../../test/support/refunds.ts";
import { REFUND_GRACE_MS } from "../payments/reconciler.ts";
import { type StubRefund, startStripeStub } from "../../test/support/stripe-stub.ts";

const WEBHOOK_SECRET = "whsec_test_storefront";
const STRIPE_ENV = { STRIPE_SECRET_KEY: "sk_test_storefront", STRIPE_PUBLISHABLE_KEY: "pk_test_storefront", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET };
const PRICE = priceCents(3);
// Only used to sign test payloads, as Stripe's own docs do; it makes no request.
const signer = new Stripe("sk_test_signer");

let stub: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

/** Stripe's charge.refunded: the charge with its refunds list, as the webhook carries it. */
function chargeRefunded(refund: StubRefund) {
  return JSON.stringify({
    id: `evt_${refund.id}_${refund.status}`,
    object: "event",
    type: "charge.refunded",
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: `ch_${refund.payment_intent}`, object: "charge", payment_intent: refund.payment_intent, refunded: true, refunds: { object: "list", data: [refund] } } },
  });
}

function refundUpdated(refund: StubRefund) {
  return JSON.stringify({ id: `evt_${refund.id}_u`, object: "event", type: "refund.updated", created: Math.floor(Date.now() / 1000), data: { object: refund } });
}

// Refunds in Stripe mode: the server calls Stripe's Refunds API with an idempotency key, the refund
// is pending until the webhook reports it, and replayed webhooks add nothing.
describe.each(testEngines())("refunds through Stripe on %s (against a local Stripe stub)", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup() {
    const database = await freshDatabase(engine);
    const { app, services } = await testApp({ database, env: STRIPE_ENV, stripeApi: stub.api });
    cleanup(async () => {
      services.orderFeed.closeAll();
      await services.orderEvents.close();
      await database.drop();
    });
    const admin = await signUpAdmin(app, services);
    const ada = await signUp(app, `ada.${engine}.${Date.now()}@example.com`);
    const created = await app.request("/api/payment/create", jsonPost({ items: [{ id: 3, amount: 2 }], total: PRICE * 2 }, { cookie: ada }));
    const { clientSecret } = (await created.json()) as { clientSecret: string };
    const intent = stub.intents.get(clientSecret.split("_secret_")[0]!)!;
    intent.status = "succeeded";
    expect((await app.request("/api/payment/complete", jsonPost({ paymentIntentId: intent.id }, { cookie: ada }))).status).toBe(200);
    const webhook = (payload: string) =>
      app.request("/api/payment/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
        body: payload,
      });
    const state = async () => {
      const refunds = await database.db.selectFrom("refunds").select(["status", "gateway_id", "amount"]).execute();
      const order = await database.db.selectFrom("orders").select(["refunded", "status"]).where("id", "=", intent.id).executeTakeFirstOrThrow();
      const mails = await database.db.selectFrom("mail_outbox").select("id").where("kind", "=", "refund").execute();
      return { refunds, order, mails: mails.length };
    };
    return { app, admin, orderId: intent.id, webhook, state, reconciler: services.reconciler };
  }

  it("asks Stripe with one idempotency key, stays pending, and records replayed charge.refunded webhooks once", async () => {
    const { app, admin, orderId, webhook, state } = await setup();
    const body = { lines: [{ id: 3, amount: 1 }], reason: "Arrived broken", restock: false };
    const answers = await Promise.all(Array.from({ length: 10 }, () => postRefund(app, admin, orderId, body, "stripe-key")));
    const answer = (await answers[0]!.json()) as { refund: { id: string; amount: number; status: string } };
    expect(answer.refund).toMatchObject({ amount: PRICE, status: "pending" });
    const sent = stub.requests.filter((r) => r.path === "/v1/refunds" && r.params.get("metadata[refund_id]") === answer.refund.id);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const request of sent) {
      expect(Object.fromEntries(request.params)).toEqual({ payment_intent: orderId, amount: String(PRICE), "metadata[refund_id]": answer.refund.id });
      expect(request.headers["idempotency-key"]).toBe(`refund-${answer.refund.id}`);
    }
    const refund = [...stub.refunds.values()].find((r) => r.metadata.refund_id === answer.refund.id)!;
    expect((await state()).refunds).toEqual([{ status: "pending", gateway_id: refund.id, amount: PRICE }]);

    // Stripe reports it done; the notification arrives five times at once, and once more later.
    refund.status = "succeeded";
    const replays = await Promise.all(Array.from({ length: 5 }, () => webhook(chargeRefunded(refund))));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await webhook(refundUpdated(refund))).status).toBe(200);
    expect(await state()).toEqual({ refunds: [{ status: "succeeded", gateway_id: refund.id, amount: PRICE }], order: { refunded: PRICE, status: "partially_refunded" }, mails: 1 });
    // And the back office's retry gets the refund as it stands now.
    expect(await (await postRefund(app, admin, orderId, body, "stripe-key")).json()).toEqual({ refund: { ...answer.refund, status: "succeeded" } });
  });

  it("gives the amount back when Stripe reports the refund failed, once", async () => {
    const { app, admin, orderId, webhook, state } = await setup();
    const answer = (await (await postRefund(app, admin, orderId, { reason: "Cancelled", restock: false })).json()) as { refund: { id: string } };
    const refund = [...stub.refunds.values()].find((r) => r.metadata.refund_id === answer.refund.id)!;
    expect((await state()).order).toEqual({ refunded: PRICE * 2, status: "refunded" });
    refund.status = "failed";
    for (let i = 0; i < 3; i++) expect((await webhook(refundUpdated(refund))).status).toBe(200);
    expect(await state()).toEqual({ refunds: [{ status: "failed", gateway_id: refund.id, amount: PRICE * 2 }], order: { refunded: 0, status: "paid" }, mails: 0 });
    // What failed may be refunded again.
    expect((await postRefund(app, admin, orderId, { reason: "Cancelled, again", restock: false })).status).toBe(200);
  });

  it("records Stripe's refusal as a failed refund and gives its amount back", async () => {
    const { app, admin, orderId, state } = await setup();
    // Stripe no longer sees a successful charge on the intent (the stub refuses as Stripe does).
    stub.intents.get(orderId)!.status = "requires_payment_method";
    const answer = await postRefund(app, admin, orderId, { reason: "Cancelled", restock: false });
    expect(await answer.json()).toEqual({ refund: expect.objectContaining({ amount: PRICE * 2, status: "failed" }) });
    expect(await state()).toEqual({ refunds: [{ status: "failed", gateway_id: null, amount: PRICE * 2 }], order: { refunded: 0, status: "paid" }, mails: 0 });
    stub.intents.get(orderId)!.status = "succeeded";
  });

  it("leaves a refund pending while Stripe cannot be reached, and the reconciler asks again", async () => {
    const { app, admin, orderId, state, reconciler } = await setup();
    stub.outage.refunds = true;
    try {
      const answer = await postRefund(app, admin, orderId, { lines: [{ id: 3, amount: 1 }], reason: "Broken", restock: false });
      expect(await answer.json()).toEqual({ refund: expect.objectContaining({ amount: PRICE, status: "pending" }) });
      expect((await state()).refunds).toEqual([{ status: "pending", gateway_id: null, amount: PRICE }]);
    } finally {
      stub.outage.refunds = false;
    }
    // Too soon: the request itself may still be on its way.
    expect((await reconciler.run())?.refundsAsked).toBe(0);
    expect((await reconciler.run(Date.now() + REFUND_GRACE_MS))?.refundsAsked).toBe(1);
    const [refund] = (await state()).refunds;
    expect(refund).toEqual({ status: "pending", gateway_id: expect.stringMatching(/^re_stub/), amount: PRICE });
    expect((await reconciler.run(Date.now() + REFUND_GRACE_MS))?.refundsAsked).toBe(0);
  });

  it("ignores a webhook for a refund the shop did not make", async () => {
    const { webhook, state } = await setup();
    const stranger: StubRefund = { id: "re_elsewhere", object: "refund", amount: 100, currency: "usd", status: "succeeded", payment_intent: "pi_other", created: 0, metadata: {} };
    expect((await webhook(chargeRefunded(stranger))).status).toBe(200);
    expect((await state()).refunds).toEqual([]);
  });
});
