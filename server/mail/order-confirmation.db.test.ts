import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { startSmtpServer, textOf } from "../../test/support/smtp-server.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { startStripeStub } from "../../test/support/stripe-stub.ts";
import { MailWorker } from "./worker.ts";

// One confirmation per order, whatever the concurrency: the mail is written in the order's own
// transaction under a unique (kind, order id) key, and sent by the worker to a real SMTP server.

const product = (id: number) => products.find((p) => p.id === id)!;
const cents = (id: number) => Math.round(product(id).price * 100);
const BASKET = [
  { id: 1, amount: 2 },
  { id: 17, amount: 1 },
];
const TOTAL = cents(1) * 2 + cents(17);
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };
const usd = (c: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(c / 100);
const WEBHOOK_SECRET = "whsec_test_storefront";
const signer = new Stripe("sk_test_signer");

let stripe: Awaited<ReturnType<typeof startStripeStub>>;
beforeAll(async () => {
  stripe = await startStripeStub();
});
afterAll(() => stripe.close());

describe.each(testEngines())("order confirmation mail on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string> = {}) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const smtp = await startSmtpServer();
    cleanup(smtp.close);
    const { app, services } = await testApp({ database, env: { SMTP_URL: smtp.url, ...env }, stripeApi: stripe.api });
    cleanup(() => services.mail.close());
    const email = `alice.${engine}.${Date.now()}@example.com`;
    const alice = await signUp(app, email);
    // The sign-up's own mail (confirming the address) leaves first: these tests count order mail.
    expect(await services.mail.worker.drain()).toBe(1);
    expect((await smtp.waitForAccepted(1)).map((m) => m.subject)).toEqual(["Confirm your Storefront email address"]);
    smtp.accepted.length = 0;
    return { app, services, database, smtp, alice, email };
  }

  async function intentFor(app: Awaited<ReturnType<typeof setup>>["app"], cookie: string, items = BASKET, total = TOTAL) {
    const response = await app.request("/api/payment/create", jsonPost({ items, total }, { cookie }));
    expect(response.status).toBe(200);
    return ((await response.json()) as { clientSecret: string }).clientSecret;
  }

  it("sends one confirmation with the lines, quantities, total, date and a link to /orders under 20 concurrent confirmations", async () => {
    const { app, services, smtp, alice, email } = await setup();
    const clientSecret = await intentFor(app, alice);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => app.request("/api/payment/confirm", jsonPost({ clientSecret, card: CARD }, { cookie: alice }))),
    );
    expect(responses.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    const orderId = clientSecret.split("_secret_")[0]!;

    expect(await services.mail.worker.drain()).toBe(1);
    expect(await services.mail.worker.drain()).toBe(0);
    const [mail] = await smtp.waitForAccepted(1);
    expect(smtp.accepted).toHaveLength(1);
    expect(mail!.subject).toBe(`Your Storefront order ${orderId}`);
    expect(mail!.to).toMatchObject({ value: [{ address: email }] });
    expect(mail!.from?.text).toBe('"Storefront" <no-reply@localhost>');
    expect(mail!.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    const text = textOf(mail!);
    expect(text).toContain(`2 x ${product(1).title}: ${usd(cents(1) * 2)}`);
    expect(text).toContain(`1 x ${product(17).title}: ${usd(cents(17))}`);
    expect(text).toContain(`Total: ${usd(TOTAL)}`);
    expect(text).toMatch(/Date: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/);
    expect(text).toContain("See your orders: http://localhost:3000/orders");
    expect(mail!.html).toContain('href="http://localhost:3000/orders"');
    expect(mail!.html).toContain(`<td style="padding:4px 8px;text-align:right">2</td>`);
    // SMTP_URL's credentials were used to log in.
    expect(smtp.logins).toContain("shop");
  });

  it("sends one confirmation when the signed webhook is replayed 5 times beside the browser's completion", async () => {
    const { app, services, smtp, alice } = await setup({
      STRIPE_SECRET_KEY: "sk_test_storefront",
      STRIPE_PUBLISHABLE_KEY: "pk_test_storefront",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    const clientSecret = await intentFor(app, alice, [{ id: 3, amount: 1 }], cents(3));
    const intent = stripe.intents.get(clientSecret.split("_secret_")[0]!)!;
    intent.status = "succeeded";
    const payload = JSON.stringify({
      id: `evt_${intent.id}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...intent, object: "payment_intent" } },
    });
    const webhook = () => {
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      return app.request("/api/payment/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
    };
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, webhook),
      app.request("/api/payment/complete", jsonPost({ paymentIntentId: intent.id }, { cookie: alice })),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await services.mail.worker.drain();
    // A replay after the mail has left writes no second one either.
    expect((await webhook()).status).toBe(200);
    expect(await services.mail.worker.drain()).toBe(0);
    expect(smtp.accepted.map((m) => m.subject)).toEqual([`Your Storefront order ${intent.id}`]);
  });

  // Several instances share one outbox only on PostgreSQL (SQLite is one process).
  if (engine === "postgres") it("shares the work between two instances' workers without sending a message twice", async () => {
    const { app, services, database, smtp, alice } = await setup();
    const ORDERS = 8;
    for (let i = 0; i < ORDERS; i++) {
      const clientSecret = await intentFor(app, alice, [{ id: 5, amount: i + 1 }], cents(5) * (i + 1));
      expect((await app.request("/api/payment/confirm", jsonPost({ clientSecret, card: CARD }, { cookie: alice }))).status).toBe(200);
    }
    // A second instance: its own worker over the same database and the same SMTP server.
    const other = new MailWorker({
      db: database.db,
      engine: "postgres",
      mailer: services.mail.mailer,
      log: memoryLogger().log,
      from: "Storefront <no-reply@localhost>",
      publicUrl: "http://localhost:3000",
      pollMs: 1_000,
      retryBaseMs: 1_000,
      maxAttempts: 3,
    });
    const [mine, theirs] = await Promise.all([services.mail.worker.drain(), other.drain()]);
    expect(mine + theirs).toBe(ORDERS);
    await smtp.waitForAccepted(ORDERS);
    const ids = smtp.accepted.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ORDERS);
    expect(smtp.accepted).toHaveLength(ORDERS);
  });
});
